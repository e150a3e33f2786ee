import type { JsonValue } from '@x/jobs-core';

/**
 * JSON containment, as Postgres `@>` defines it: an object contains every key of `needle` with a
 * contained value; an array contains each element of `needle` in some element of its own; any
 * other value contains only an equal value.
 */
export function jsonContains(haystack: JsonValue, needle: JsonValue): boolean {
  if (Array.isArray(needle)) {
    return (
      Array.isArray(haystack) && needle.every((want) => haystack.some((have) => jsonContains(have, want)))
    );
  }
  if (needle !== null && typeof needle === 'object') {
    if (haystack === null || typeof haystack !== 'object' || Array.isArray(haystack)) return false;
    return Object.entries(needle).every(
      ([key, want]) => Object.hasOwn(haystack, key) && jsonContains(haystack[key] as JsonValue, want),
    );
  }
  return haystack === needle;
}
