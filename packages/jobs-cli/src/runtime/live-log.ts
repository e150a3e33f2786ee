import type { CliStream } from '../cli-io.js';

/**
 * One output stream with an optional sticky status line at the bottom: `line()` prints above it,
 * `status()` redraws it in place. The status line is drawn only on a TTY; elsewhere only lines
 * are written, so a log file gets no control characters.
 */
export class LiveLog {
  readonly #stream: CliStream;
  readonly #sticky: boolean;
  #status = '';

  constructor(stream: CliStream) {
    this.#stream = stream;
    this.#sticky = stream.isTTY === true;
  }

  /** Prints a line above the status line. */
  line(text: string): void {
    if (this.#sticky && this.#status !== '') {
      this.#stream.write(`\r\u001b[K${text}\n${this.#status}`);
    } else {
      this.#stream.write(`${text}\n`);
    }
  }

  /** Replaces the status line (TTY only). */
  status(text: string): void {
    if (!this.#sticky || text === this.#status) return;
    this.#status = text;
    this.#stream.write(`\r\u001b[K${text}`);
  }

  /** Removes the status line. */
  clear(): void {
    if (this.#sticky && this.#status !== '') this.#stream.write('\r\u001b[K');
    this.#status = '';
  }
}
