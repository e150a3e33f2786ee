import { InvalidArgumentError } from 'commander';

/**
 * A commander parser for a whole-number option within `[min, max]`; anything else is a usage
 * error whose message is `expected` (e.g. `'Expected a port from 0 to 65535, e.g. --port 4600.'`).
 */
export function integerOption(min: number, max: number, expected: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(expected);
    return n;
  };
}
