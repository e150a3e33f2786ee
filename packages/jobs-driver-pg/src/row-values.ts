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
