import { REDACTED, sensitiveKeyTest } from './redact-json.js';

/** A key (bare, or quoted as JSON and JS print it) and the separator before its value. */
const KEY = /(?<![\w."'-])(["']?)([A-Za-z_][\w.-]*)\1(\s*[:=]\s*)/g;

/**
 * A value after a sensitive key: a quoted string, an auth scheme and its credential
 * (`Bearer abc`), or a run of characters up to whitespace or punctuation that ends a value.
 */
const VALUE =
  /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|(?:(?:Bearer|Basic|Digest|Token)\s+)?[^\s,;&"'<>(){}[\]]+/iy;

/** The password of a URL's user info: `scheme://user:password@host`. */
const URL_PASSWORD = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):([^\s/@]+)@/gi;

/**
 * `text` with the value of every `key: value`, `key=value` and `"key": "value"` pair whose key is
 * sensitive by the rules inputs are redacted by ({@link sensitiveKeyTest}: `password`, `token`,
 * `secret`, `authorization`, … plus `extraKeys`) replaced by `[redacted]` (a quoted value keeps its
 * quotes), and the password of every `scheme://user:password@host` URL too. What an error message
 * or stack says is free text, so this is a best effort over the usual spellings: a secret written
 * with no key before it is not recognised.
 */
export function redactText(text: string, extraKeys: readonly string[] = []): string {
  const sensitive = sensitiveKeyTest(extraKeys);
  const urlsMasked = text.replace(URL_PASSWORD, (_match, head: string) => `${head}:${REDACTED}@`);
  let out = '';
  let from = 0;
  KEY.lastIndex = 0;
  for (let match = KEY.exec(urlsMasked); match !== null; match = KEY.exec(urlsMasked)) {
    if (!sensitive(match[2] as string)) continue;
    VALUE.lastIndex = KEY.lastIndex;
    const value = VALUE.exec(urlsMasked);
    if (value === null) continue;
    const first = value[0][0];
    const quoted = first === '"' || first === "'";
    out += urlsMasked.slice(from, KEY.lastIndex) + (quoted ? `${first}${REDACTED}${first}` : REDACTED);
    from = KEY.lastIndex + value[0].length;
    KEY.lastIndex = from;
  }
  return out + urlsMasked.slice(from);
}
