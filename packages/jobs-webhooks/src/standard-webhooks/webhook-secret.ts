import { randomBytes } from 'node:crypto';
import { webhookError } from '../errors.js';

/** The prefix Standard Webhooks secrets carry. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key of a Standard Webhooks secret: the bytes of the base64 after `whsec_`. As the
 * reference libraries do, a secret without the prefix is read as base64 whole. Anything that is not
 * non-empty base64 is `X_WEBHOOK_SECRET_INVALID` (the message never contains the secret).
 */
export function webhookSecretKey(secret: string): Buffer {
  if (typeof secret !== 'string') throw secretInvalid();
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  if (encoded.length === 0 || encoded.length % 4 !== 0 || !BASE64.test(encoded)) throw secretInvalid();
  return Buffer.from(encoded, 'base64');
}

/** A fresh secret: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function secretInvalid() {
  return webhookError(
    'X_WEBHOOK_SECRET_INVALID',
    "A webhook secret must be 'whsec_' followed by non-empty base64.",
  );
}
