import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';

/** Checks that `value` is an integer in `[min, max]`, else `code` naming `field` and the range. */
export function boundedInteger(
  value: unknown,
  field: string,
  min: number,
  max: number,
  code: CoreErrorCode,
): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw coreError(code, `${field}: must be an integer from ${min} to ${max}, got ${String(value)}.`, {
      field,
      min,
      max,
    });
  }
  return value;
}
