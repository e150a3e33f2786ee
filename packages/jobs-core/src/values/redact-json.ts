import type { JsonValue } from './json.js';

/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Key fragments whose values `show` never prints. A key matches when, lower-cased with
 * everything but letters and digits removed, it contains a fragment: `password`, `api_key`,
 * `X-Api-Key`, `accessToken`, `clientSecret`, `Authorization` all match.
 */
export const DEFAULT_REDACTED_KEYS: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'authorization',
  'cookie',
  'privatekey',
  'accesskey',
  'credential',
  'signature',
  'ssn',
  'cardnumber',
  'cvv',
];

function normalise(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The test every redaction applies to a key: true when the key, lower-cased with everything but
 * letters and digits removed, contains a fragment of {@link DEFAULT_REDACTED_KEYS} or of
 * `extraKeys` (normalised the same way).
 */
export function sensitiveKeyTest(extraKeys: readonly string[] = []): (key: string) => boolean {
  const fragments = [...DEFAULT_REDACTED_KEYS, ...extraKeys.map(normalise)].filter((f) => f !== '');
  return (key) => {
    const normalised = normalise(key);
    return fragments.some((fragment) => normalised.includes(fragment));
  };
}

/**
 * A copy of `value` with the value of every object key matching a fragment (see
 * {@link DEFAULT_REDACTED_KEYS}, plus `extraKeys`) replaced by `[redacted]`, at any depth,
 * arrays included. Non-object values pass through.
 */
export function redactJson(value: JsonValue, extraKeys: readonly string[] = []): JsonValue {
  const sensitive = sensitiveKeyTest(extraKeys);
  const walk = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      const out: { [key: string]: JsonValue } = {};
      for (const [key, child] of Object.entries(node)) out[key] = sensitive(key) ? REDACTED : walk(child);
      return out;
    }
    return node;
  };
  return walk(value);
}
