/** Who a line of the live view comes from. */
export type Speaker = 'demo' | 'signup' | 'outbox' | 'queue' | 'worker' | 'step' | 'cron' | 'login' | 'sweep';

/** The live view: one timestamped line per thing that happens, and why. */
export interface Narrator {
  say(speaker: Speaker, text: string): void;
  /** A line with no timestamp (headings, the summary). */
  plain(text: string): void;
  readonly style: Style;
}

/** Text styles; identity functions when colour is off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
}

const COLOURS: Record<Speaker, number> = {
  demo: 37,
  signup: 35,
  outbox: 34,
  queue: 36,
  worker: 33,
  step: 32,
  cron: 36,
  login: 35,
  sweep: 33,
};

/**
 * Writes to `out`; colours only when `out` is a TTY and `NO_COLOR` is unset (or when
 * `FORCE_COLOR` asks). Times are seconds since the demo started.
 */
export function createNarrator(
  out: { write(text: string): unknown; readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): Narrator {
  const colour =
    (env.NO_COLOR === undefined || env.NO_COLOR === '') &&
    ((env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') || out.isTTY === true);
  const sgr =
    (open: number, close: number) =>
    (text: string): string =>
      colour ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  const style: Style = {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    red: sgr(31, 39),
    cyan: sgr(36, 39),
  };
  const started = Date.now();
  return {
    style,
    say(speaker, text) {
      const at = `${((Date.now() - started) / 1000).toFixed(1)}s`.padStart(6);
      out.write(`${style.dim(at)}  ${sgr(COLOURS[speaker], 39)(speaker.padEnd(6))}  ${text}\n`);
    },
    plain(text) {
      out.write(`${text}\n`);
    },
  };
}
