/**
 * Encodes an optional string for a script's ARGV: null/undefined as '' and a value behind a
 * one-character '=' marker, so '' stays distinguishable from absent. Decoded by Lua `opt()`.
 */
export function optionalArg(value: string | null | undefined): string {
  return value === null || value === undefined ? '' : `=${value}`;
}
