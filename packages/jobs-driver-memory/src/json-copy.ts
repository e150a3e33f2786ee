import type { JsonValue } from '@x/jobs-core';

/** The JSON text of `value` as a database would store it: `undefined` becomes `null`. */
export function toJsonText(value: JsonValue | undefined): string {
  return JSON.stringify(value ?? null);
}

/**
 * The JSON form of `value` as a fresh object, the way a database would store and answer it:
 * callers never share a reference with the store, and `undefined` becomes `null`.
 */
export function copyJson<T extends JsonValue>(value: T | undefined): T {
  return (value === undefined || value === null ? null : JSON.parse(JSON.stringify(value))) as T;
}
