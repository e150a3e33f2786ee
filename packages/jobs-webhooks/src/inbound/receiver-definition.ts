import type { Duration, JobDriver, JobRunContext, JsonValue, RetryPolicy, StepApi } from '@x/jobs-core';

/** What a verifier sees: the exact bytes and the headers, nothing parsed. */
export interface InboundWebhook {
  /** The body exactly as received (at most `maxBytes`). */
  readonly bytes: Uint8Array;
  readonly headers: Headers;
  /** The request URL (path and query included). */
  readonly url: string;
  /** The bytes decoded as UTF-8 (a convenience: verify over `bytes`). */
  text(): string;
}

/** What a verifier answers for a genuine event: the dedupe id from verified data, and the payload to queue. */
export interface VerifiedWebhook {
  /** 1–256 printable ASCII characters, taken from signed data (else 422). */
  readonly eventId: string;
  /** What the job's `handle` receives; JSON. */
  readonly payload: JsonValue;
}

/** A verifier may answer a response of its own instead (a subscription handshake, a challenge): nothing queues. */
export interface VerifierAnswer {
  readonly response: Response;
}

/** Verifies one inbound request; throwing (anything) refuses it with 401. */
export type WebhookVerifier = (
  inbound: InboundWebhook,
) => VerifiedWebhook | VerifierAnswer | Promise<VerifiedWebhook | VerifierAnswer>;

/** What `handle` receives: the verified event, once per delivery, at least once. */
export interface ReceiverHandleArgs {
  readonly eventId: string;
  readonly payload: JsonValue;
  readonly step: StepApi;
  readonly ctx: JobRunContext;
}

/** A webhook receiver declaration. Give `verify`, or `secret` for the Standard Webhooks verifier. */
export interface WebhookReceiverDefinition<Result> {
  /** The durable name of the job that handles each event. Required. */
  readonly name: string;
  /** The org an event is handled as, from the verified event, or `'none'`. Required. */
  readonly tenant: ((event: VerifiedWebhook) => string) | 'none';
  /** Any verifier. Exclusive with `secret`. */
  readonly verify?: WebhookVerifier;
  /** The Standard Webhooks secret(s) (`whsec_…`): the default verifier. Exclusive with `verify`. */
  readonly secret?: string | readonly string[];
  /** For the default verifier: how far `webhook-timestamp` may be from now. (Default: '5m') */
  readonly tolerance?: Duration;
  /** The job body: receives the payload `verify` answered, already verified. */
  readonly handle: (args: ReceiverHandleArgs) => Result | Promise<Result>;
  /** The largest body read; past it the request is 413 and the rest is left unread. (Default: 1 MiB) */
  readonly maxBytes?: number;
  /** The `Retry-After` seconds a 503 names when the enqueue failed. (Default: 30) */
  readonly retryAfterSeconds?: number;
  /** The driver events are enqueued into, directly (never through an outbox). (Default: the ambient `jobDriver()`) */
  readonly driver?: JobDriver;
  /** (Default: 'default') */
  readonly queue?: string;
  /** How a failing `handle` is retried. (Default: core's policy) */
  readonly retry?: RetryPolicy;
}
