import type { JsonValue } from '../values/json.js';

/**
 * For driver authors: JSON containment, what `EventQuery.match` means — the one implementation the
 * drivers without a native operator use (memory, Redis). As Postgres `@>` defines it: an object
 * contains every key of `needle` with a contained value; an array contains each element of
 * `needle` in some element of its own; any other value contains only an equal value. (Postgres
 * also lets a top-level array contain a bare scalar; a `match` is always an object, so `@>` and
 * this agree on every query.)
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
