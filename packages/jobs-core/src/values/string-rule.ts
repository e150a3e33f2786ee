/** Why a string cannot be stored on every driver alike. */
export type StringIssueCode = 'lone_surrogate' | 'nul_character';

/** `String.prototype.isWellFormed` (Node 20+), typed here because the build targets ES2023's lib. */
type WellFormedString = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * The rule every stored string follows: well-formed UTF-16 (no lone surrogate, which Postgres,
 * PGlite and Redis silently turn into U+FFFD) and no U+0000 (which Postgres refuses in text and
 * jsonb). Answers the problem, or undefined for a storable string. Two native scans, no regex.
 */
export function stringIssue(value: string): StringIssueCode | undefined {
  if (!(value as WellFormedString).isWellFormed()) return 'lone_surrogate';
  if (value.includes('\u0000')) return 'nul_character';
  return undefined;
}

/**
 * `value` made storable: each lone surrogate and each U+0000 replaced by U+FFFD. For diagnostics
 * (error messages, codes) that are kept rather than refused; a storable string comes back as is.
 */
export function storableText(value: string): string {
  if (stringIssue(value) === undefined) return value;
  return (value as WellFormedString).toWellFormed().replaceAll('\u0000', '\uFFFD');
}

/**
 * True when `value` takes more than `maxBytes` bytes in UTF-8. Cheap for short strings: a UTF-16
 * code unit is at most 3 UTF-8 bytes, so only a string longer than `maxBytes / 3` is measured.
 */
export function exceedsUtf8Bytes(value: string, maxBytes: number): boolean {
  if (value.length * 3 <= maxBytes) return false;
  if (value.length > maxBytes) return true;
  return Buffer.byteLength(value, 'utf8') > maxBytes;
}
