import { timingSafeEqual } from 'node:crypto';
import { webhookError } from '../errors.js';
import { webhookSignature } from './sign-webhook.js';
import { webhookSecretKey } from './webhook-secret.js';

/** The default tolerance between a message's timestamp and the receiver's clock, in seconds. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** What {@link verifyWebhook} checks. */
export interface VerifyWebhookInput {
  /** The request headers (`Headers`, or a plain record with lower-case names). */
  readonly headers: Headers | Readonly<Record<string, string | undefined>>;
  /** The exact body bytes, before any parsing. */
  readonly body: Uint8Array | string;
  /** The secret, or several while one is being rotated: any of them may match. */
  readonly secret: string | readonly string[];
  /** How far the timestamp may be from now, either way, in seconds. (Default: 300) */
  readonly toleranceSeconds?: number;
  /** The receiver's clock in ms. (Default: Date.now) */
  readonly now?: () => number;
}

/** A verified message's signed id and timestamp. */
export interface VerifiedSignature {
  readonly id: string;
  /** Seconds since the epoch. */
  readonly timestamp: number;
}

/**
 * Verifies a Standard Webhooks signature: the three headers are present, the timestamp is an
 * integer within `toleranceSeconds` of now (a captured request cannot be replayed later), and one
 * of the space-separated `v1,<sig>` entries equals the HMAC under one of the secrets (compared in
 * constant time). Anything else is `X_WEBHOOK_SIGNATURE_INVALID` with `meta.reason` (`'headers'`,
 * `'timestamp'`, `'signature'`); no header value is echoed.
 */
export function verifyWebhook(input: VerifyWebhookInput): VerifiedSignature {
  const id = header(input.headers, 'webhook-id');
  const stamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (id === undefined || stamp === undefined || signatures === undefined) throw invalid('headers');
  const timestamp = Number(stamp);
  const nowSeconds = Math.floor((input.now ?? Date.now)() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (!/^\d{1,12}$/.test(stamp) || Math.abs(nowSeconds - timestamp) > tolerance) throw invalid('timestamp');
  const given = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  for (const secret of secrets) {
    const expected = Buffer.from(webhookSignature(webhookSecretKey(secret), id, stamp, input.body), 'base64');
    if (
      given.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))
    ) {
      return { id, timestamp };
    }
  }
  throw invalid('signature');
}

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function invalid(reason: 'headers' | 'timestamp' | 'signature') {
  return webhookError('X_WEBHOOK_SIGNATURE_INVALID', `Webhook verification failed (${reason}).`, { reason });
}
