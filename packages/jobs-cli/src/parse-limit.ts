import { InvalidArgumentError } from 'commander';

/** Commander parser for `--limit`: an integer from 1 to 1000, else a usage error saying so. */
export function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new InvalidArgumentError('Expected a whole number from 1 to 1000, e.g. --limit 50.');
  }
  return limit;
}
