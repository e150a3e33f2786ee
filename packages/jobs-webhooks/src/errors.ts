import { JobsError, registerErrorRetry } from '@x/jobs-core';

/**
 * Every error code @x/jobs-webhooks throws, with its one-line meaning. Codes are the contract;
 * messages may change. None carries a secret, a payload or a header value in its message or meta.
 */
export const WEBHOOK_ERROR_CODES = {
  X_WEBHOOK_INVALID: 'A webhook() field is missing or invalid (meta.field names it).',
  X_WEBHOOK_SECRET_INVALID: "A signing secret is not 'whsec_' followed by non-empty base64.",
  X_WEBHOOK_ENDPOINT_UNKNOWN: 'endpoint(input) answered null: the endpoint no longer exists. Terminal.',
  X_WEBHOOK_ENDPOINT_INVALID: 'endpoint(input) answered no http(s) URL or no secret. Terminal.',
  X_WEBHOOK_ENDPOINT_DISABLED:
    'The endpoint is disabled: by the app, by the ledger after disableAfter consecutive failures, or by a 410. Terminal.',
  X_WEBHOOK_EVENT_UNKNOWN: 'event(input) answered null: the event no longer exists. Terminal.',
  X_WEBHOOK_EVENT_INVALID: 'event(input) answered no { type, data } with a JSON data. Terminal.',
  X_WEBHOOK_DELIVERY_FAILED:
    'The receiver answered 5xx (or 408/425), the request timed out, or the network failed. Retried with the backoff.',
  X_WEBHOOK_DELIVERY_THROTTLED:
    'The receiver answered 429 (or 503 with Retry-After). Retried after meta.retryAfterSeconds when it sent one.',
  X_WEBHOOK_DELIVERY_REJECTED: 'The receiver answered another 4xx, or a redirect. Terminal.',
  X_WEBHOOK_RECEIVER_INVALID: 'A webhookReceiver() field is missing or invalid (meta.field names it).',
  X_WEBHOOK_SIGNATURE_INVALID:
    'An inbound request failed verification (missing headers, a timestamp outside the tolerance, no matching signature): 401.',
  X_WEBHOOK_PAYLOAD_TOO_LARGE: 'An inbound body is larger than maxBytes: 413, the rest left unread.',
  X_WEBHOOK_EVENT_ID_INVALID: 'verify answered an eventId that is not 1–256 printable ASCII characters: 422.',
  X_WEBHOOK_RECEIVER_UNAVAILABLE:
    'The verified event could not be enqueued: 503 with Retry-After, so the sender redelivers.',
  X_WEBHOOK_METHOD_NOT_ALLOWED: 'An inbound request used a method other than POST: 405.',
  X_WEBHOOK_RECEIVER_FAILED:
    'The request handler itself threw (a bug): the Node adapter answers 500 with no detail.',
} as const;

/** A code @x/jobs-webhooks can throw. */
export type WebhookErrorCode = keyof typeof WEBHOOK_ERROR_CODES;

/** Builds a webhooks error: `throw webhookError('X_WEBHOOK_INVALID', '…', { field: 'endpoint' })`. */
export function webhookError(
  code: WebhookErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<WebhookErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}

let registered = false;

/**
 * Classifies the delivery codes for core's retry decision, once per process (called by both
 * factories at declaration): a throttle waits the time the receiver named, a failure follows the
 * backoff, and everything a retry cannot change (gone, disabled, rejected, unknown) dead-letters
 * at once with its attempts unspent.
 */
export function registerWebhookRetryClasses(): void {
  if (registered) return;
  registered = true;
  registerErrorRetry({
    X_WEBHOOK_DELIVERY_THROTTLED: 'retry-after',
    X_WEBHOOK_DELIVERY_FAILED: 'retryable',
    X_WEBHOOK_DELIVERY_REJECTED: 'terminal',
    X_WEBHOOK_ENDPOINT_DISABLED: 'terminal',
    X_WEBHOOK_ENDPOINT_UNKNOWN: 'terminal',
    X_WEBHOOK_ENDPOINT_INVALID: 'terminal',
    X_WEBHOOK_EVENT_UNKNOWN: 'terminal',
    X_WEBHOOK_EVENT_INVALID: 'terminal',
    X_WEBHOOK_SECRET_INVALID: 'terminal',
    X_WEBHOOK_INVALID: 'terminal',
    X_WEBHOOK_RECEIVER_INVALID: 'terminal',
  });
}
