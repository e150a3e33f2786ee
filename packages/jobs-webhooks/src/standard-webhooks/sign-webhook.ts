import { createHmac } from 'node:crypto';
import { webhookSecretKey } from './webhook-secret.js';

/** What {@link signWebhook} signs. */
export interface SignWebhookInput {
  /** The message id (`webhook-id`): the same on every retry of one message, so receivers dedupe on it. */
  readonly id: string;
  /** Seconds since the epoch (`webhook-timestamp`), taken per attempt. */
  readonly timestamp: number;
  /** The exact bytes (or UTF-8 text) sent as the body. */
  readonly body: string | Uint8Array;
  /** `whsec_<base64>`. */
  readonly secret: string;
}

/** The three Standard Webhooks headers (a type alias, so it passes where a header record is expected). */
export type StandardWebhookHeaders = {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

/**
 * Signs one message with the Standard Webhooks scheme: `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256, keyed by the secret's bytes, of `<id>.<timestamp>.<body>`. Any Standard Webhooks
 * verifier (the `standardwebhooks` packages, Svix's libraries) accepts it.
 */
export function signWebhook(input: SignWebhookInput): StandardWebhookHeaders {
  const timestamp = String(Math.floor(input.timestamp));
  return {
    'webhook-id': input.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${webhookSignature(webhookSecretKey(input.secret), input.id, timestamp, input.body)}`,
  };
}

/** The base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under `key`. */
export function webhookSignature(
  key: Buffer,
  id: string,
  timestamp: string,
  body: string | Uint8Array,
): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}
