import { backfillError } from './errors.js';

/**
 * `count()`'s answer, parsed rather than trusted: a non-negative safe integer, else
 * `X_BACKFILL_COUNT_INVALID` (NaN > 0 and -1 > 0 are both false and would pass a stalled sweep).
 */
export function readCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw backfillError(
      'X_BACKFILL_COUNT_INVALID',
      `Backfill '${name}': count() must answer a non-negative integer (got ${typeof value}).`,
      { name },
    );
  }
  return value;
}
