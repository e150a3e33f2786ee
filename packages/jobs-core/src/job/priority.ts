import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';

const INT32_MAX = 2 ** 31 - 1;

/** Checks a priority: a 32-bit signed integer (what every driver can store), else `code` naming `field`. */
export function checkPriority(value: unknown, field: string, code: CoreErrorCode): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value > INT32_MAX || value < -INT32_MAX - 1) {
    throw coreError(code, `${field}: must be an integer between -2^31 and 2^31-1, got ${String(value)}.`, {
      field,
    });
  }
  return value;
}
