import type { Printer } from './printer.js';

/** A live status line for long work. */
export interface Progress {
  /** Replaces the text after the label. */
  update(text: string): void;
  /** Stops the animation and clears the line; prints `summary` (if any) as a note. */
  done(summary?: string): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A spinner with a status text on stderr, redrawn in place. Only on a TTY and never under
 * `--json`; elsewhere `update` is silent and `done` prints the summary once, so logs stay clean.
 */
export function startProgress(printer: Printer, label: string): Progress {
  const live = !printer.json && printer.stderr.isTTY === true;
  if (!live) {
    return {
      update() {},
      done(summary) {
        if (summary !== undefined) printer.note(summary);
      },
    };
  }
  const p = printer.errPalette;
  let frame = 0;
  let text = '';
  const draw = (): void => {
    printer.stderr.write(`\r\u001b[K${p.cyan(FRAMES[frame % FRAMES.length] ?? '')} ${label} ${p.dim(text)}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, 80);
  timer.unref();
  return {
    update(next) {
      text = next;
      draw();
    },
    done(summary) {
      clearInterval(timer);
      printer.stderr.write('\r\u001b[K');
      if (summary !== undefined) printer.note(summary);
    },
  };
}
