/** Styling functions; each is the identity when colour is off. */
export interface Palette {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const codes = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;

/** A palette of ANSI SGR styles, or plain identity functions when `enabled` is false. */
export function createPalette(enabled: boolean): Palette {
  const style =
    (open: number, close: number) =>
    (text: string): string =>
      enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: style(...codes.bold),
    dim: style(...codes.dim),
    red: style(...codes.red),
    green: style(...codes.green),
    yellow: style(...codes.yellow),
    blue: style(...codes.blue),
    cyan: style(...codes.cyan),
    magenta: style(...codes.magenta),
  };
}

/**
 * Whether to colour a stream: never when `NO_COLOR` is set to anything non-empty (no-color.org),
 * always when `FORCE_COLOR` is set and not `0`, otherwise only on a TTY whose `TERM` is not `dumb`.
 */
export function shouldUseColour(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point.
const ANSI = /\u001b\[[0-9;]*m/g;

/** `text` without ANSI colour escapes. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** The printed width of `text`: its length without ANSI escapes. */
export function visibleLength(text: string): number {
  return stripAnsi(text).length;
}
