import type { JsonValue } from '@x/jobs-core';

/**
 * The JSON form of `value` as a fresh object, the way a database would store and answer it:
 * callers never share a reference with the store, and `undefined` becomes `null`.
 */
export function copyJson<T extends JsonValue>(value: T | undefined): T {
  return (value === undefined ? null : JSON.parse(JSON.stringify(value))) as T;
}
