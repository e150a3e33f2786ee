import type { JsonValue } from '@x/jobs-core';

/**
 * JSON containment, like Postgres `@>`: an object contains `pattern` when every key of the pattern
 * is present with a contained value; an array contains every element of an array pattern (each
 * matched by some element); scalars compare equal.
 */
export function jsonContains(value: JsonValue, pattern: JsonValue): boolean {
  if (Array.isArray(pattern)) {
    return (
      Array.isArray(value) && pattern.every((wanted) => value.some((item) => jsonContains(item, wanted)))
    );
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    return Object.entries(pattern).every(
      ([key, wanted]) => Object.hasOwn(value, key) && jsonContains(value[key] as JsonValue, wanted),
    );
  }
  return value === pattern;
}
