/**
 * Reads a timestamp column as epoch ms whatever the client made of it: node-postgres and PGlite
 * give a `Date`; a string or number is accepted too.
 */
export function epochMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : Date.parse(value);
  throw new TypeError(`expected a timestamp, got ${typeof value}`);
}

/** {@link epochMs}, with SQL NULL as null. */
export function epochMsOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : epochMs(value);
}

/** Reads an int8/numeric column (a string in node-postgres, a number or bigint in PGlite) as a number. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/** The JSON text of a value for a `$n::jsonb` parameter; `undefined` becomes SQL NULL. */
export function jsonParam(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** A character an array element must escape inside its double quotes. */
const ARRAY_ESCAPED = /["\\]/;

/**
 * The PostgreSQL array literal of a one-dimensional array of strings, numbers and nulls, for a
 * `$n::text[]` / `int[]` / `float8[]` parameter: every string double-quoted (so commas, braces,
 * spaces and the word NULL stay data), `"` and `\` escaped, null as `NULL`, a number as its
 * JavaScript text (an integer, or a float8 `to_timestamp` reads). node-postgres builds the same
 * literal for a JS array, but runs two regular-expression replaces per element and quotes numbers:
 * for SQL_ENQUEUE_MANY's 11 non-payload columns of 1,000 rows that was 37 ms of client CPU against
 * 15 ms here (microbenchmark on the loaded 2-core machine, 2 Dec).
 */
export function arrayLiteral(values: readonly (string | number | null | undefined)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) literal += ',';
    const value = values[i];
    if (value === null || value === undefined) literal += 'NULL';
    else if (typeof value === 'number') literal += String(value);
    else if (ARRAY_ESCAPED.test(value)) literal += `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    else literal += `"${value}"`;
  }
  return `${literal}}`;
}
