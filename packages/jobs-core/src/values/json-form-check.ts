import type { JsonValue } from './json.js';
import { isPlainlyStorable } from './plainly-storable.js';
import { exceedsUtf8Bytes } from './string-rule.js';
import { type ValueIssue, valueIssue } from './value-issue.js';

/** A value's JSON form, or why it has none that every driver stores alike. */
export type CheckedJsonForm =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly issue: ValueIssue; readonly cause?: unknown }
  | { readonly ok: false; readonly tooLarge: { readonly bytes: number; readonly max: number } };

/**
 * The JSON form of `value` (`JSON.parse(JSON.stringify(value))`, undefined as null) checked
 * against the storable-value rule ({@link valueIssue}) and a size ceiling of `maxBytes` UTF-8
 * bytes of JSON text. One stringify, one parse, and a cheap check ({@link isPlainlyStorable})
 * that leaves the precise walk to the values that need it; never throws.
 */
export function checkedJsonForm(value: unknown, maxBytes: number): CheckedJsonForm {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    return { ok: false, issue: { path: '(root)', code: 'unserializable' }, cause };
  }
  if (text === undefined) return { ok: true, value: null };
  const issue = isPlainlyStorable(value, text) ? undefined : valueIssue(value);
  if (issue !== undefined) return { ok: false, issue };
  if (exceedsUtf8Bytes(text, maxBytes)) {
    return { ok: false, tooLarge: { bytes: Buffer.byteLength(text, 'utf8'), max: maxBytes } };
  }
  return { ok: true, value: JSON.parse(text) as JsonValue };
}
