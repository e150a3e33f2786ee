import { errorCode } from '@x/jobs-core';
import type { CliIo, CliStream } from '../cli-io.js';
import { createPalette, type Palette, shouldUseColour } from './colour.js';

/**
 * Where a command writes. Results go to stdout (one JSON document under `--json`, readable text
 * otherwise); notes, progress and errors go to stderr so stdout stays pipeable.
 */
export class Printer {
  /** True under `--json`: stdout carries exactly one JSON document. */
  readonly json: boolean;
  /** Colours for stdout (identity when stdout is not a TTY, under NO_COLOR, or under `--json`). */
  readonly palette: Palette;
  /** Colours for stderr. */
  readonly errPalette: Palette;
  readonly stdout: CliStream;
  readonly stderr: CliStream;

  constructor(io: CliIo, options: { readonly json: boolean }) {
    this.json = options.json;
    this.stdout = io.stdout;
    this.stderr = io.stderr;
    this.palette = createPalette(!options.json && shouldUseColour(io.stdout, io.env));
    this.errPalette = createPalette(shouldUseColour(io.stderr, io.env));
  }

  /** Prints a command's result: `data` as JSON under `--json`, else what `human` renders. */
  result<T>(data: T, human: (data: T, palette: Palette) => string): void {
    if (this.json) {
      this.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      return;
    }
    const text = human(data, this.palette);
    if (text !== '') this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** A line for a human on stderr; silent under `--json`. */
  note(text: string): void {
    if (!this.json) this.stderr.write(`${text}\n`);
  }

  /**
   * Prints a failure: under `--json`, `{ "error": { code, message, meta } }` on stdout; otherwise
   * `error X_CODE: message` and any usage/hint lines on stderr.
   */
  error(error: unknown): void {
    const code = errorCode(error) ?? 'ERROR';
    const message = error instanceof Error ? error.message : String(error);
    const meta = readMeta(error);
    if (this.json) {
      this.stdout.write(`${JSON.stringify({ error: { code, message, meta } }, null, 2)}\n`);
      return;
    }
    const p = this.errPalette;
    const lines = [`${p.red(p.bold('error'))} ${p.bold(code)}: ${message}`];
    if (typeof meta.usage === 'string') lines.push(`${p.dim('usage:')} ${meta.usage}`);
    if (typeof meta.hint === 'string') lines.push(`${p.dim('hint:')}  ${meta.hint}`);
    this.stderr.write(`${lines.join('\n')}\n`);
  }
}

function readMeta(error: unknown): Record<string, unknown> {
  if (error !== null && typeof error === 'object' && 'meta' in error) {
    const meta = (error as { meta: unknown }).meta;
    if (meta !== null && typeof meta === 'object') return { ...(meta as Record<string, unknown>) };
  }
  return {};
}
