import type { JsonValue } from '@x/jobs-core';
import { verifyWebhook } from '../standard-webhooks/verify-webhook.js';
import type { InboundWebhook, VerifiedWebhook, WebhookVerifier } from './receiver-definition.js';

/** Options of {@link standardWebhooksVerifier}. */
export interface StandardWebhooksVerifierOptions {
  /** `whsec_<base64>`, or several during a rotation. */
  readonly secret: string | readonly string[];
  /** How far `webhook-timestamp` may be from now, in seconds. (Default: 300) */
  readonly toleranceSeconds?: number;
  /** The receiver's clock, epoch ms. (Default: Date.now) */
  readonly now?: () => number;
}

/**
 * The default verifier: a Standard Webhooks signature over the exact bytes (see `verifyWebhook`),
 * then `eventId` is the signed `webhook-id` and the payload is the body parsed as JSON (its text
 * when it is not JSON). A failed check throws `X_WEBHOOK_SIGNATURE_INVALID` (answered 401).
 */
export function standardWebhooksVerifier(options: StandardWebhooksVerifierOptions): WebhookVerifier {
  return (inbound: InboundWebhook): VerifiedWebhook => {
    const { id } = verifyWebhook({
      headers: inbound.headers,
      body: inbound.bytes,
      secret: options.secret,
      ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    const text = inbound.text();
    let payload: JsonValue;
    try {
      payload = JSON.parse(text) as JsonValue;
    } catch {
      payload = text;
    }
    return { eventId: id, payload };
  };
}
