import type { Duration, JsonValue, RetryPolicy } from '@x/jobs-core';
import type { WebhookLedger } from './webhook-ledger.js';

/** The input of a delivery job: which event goes to which endpoint (ids into the app's own tables). */
export interface WebhookDelivery {
  readonly endpointId: string;
  /** Also the `webhook-id` the receiver dedupes on: the same on every retry of this delivery. */
  readonly eventId: string;
  /** The org that owns the endpoint, for `tenant: ({ orgId }) => orgId`. */
  readonly orgId?: string | undefined;
}

/** Where one endpoint lives, read fresh at each attempt (a rotated secret or a moved URL applies at once). */
export interface WebhookEndpoint {
  /** An `http:` or `https:` URL the event is POSTed to. */
  readonly url: string;
  /** `whsec_<base64>`, or several while one is rotated out: the request carries one signature per secret. */
  readonly secret: string | readonly string[];
  /** True when the app has switched the endpoint off: the delivery is terminal, nothing is sent. (Default: false) */
  readonly disabled?: boolean;
  /** Extra request headers (never `webhook-*`, which the signer owns). (Default: none) */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The event one delivery sends, read fresh at each attempt. */
export interface WebhookEvent {
  /** The event type, e.g. `'order.paid'`. */
  readonly type: string;
  /** The payload: any JSON value. */
  readonly data: JsonValue;
  /** When the event happened. (Default: the attempt's time) */
  readonly occurredAt?: Date;
}

/** What `endpoint` and `event` receive beside the input. */
export interface WebhookReadContext {
  /** The attempt's signal: aborted on drain, cancel or a lost lease. */
  readonly signal: AbortSignal;
}

/** A webhook declaration: how to find the endpoint and the event, where attempts are recorded. */
export interface WebhookDefinition {
  /** The durable name of the delivery job (a queue key that survives a renamed export). Required. */
  readonly name: string;
  /** The org a delivery acts as, from its input, or `'none'`. Required, exactly as on `job()`. */
  readonly tenant: ((delivery: WebhookDelivery) => string) | 'none';
  /** Reads the endpoint, at every attempt; null when it no longer exists (terminal). */
  readonly endpoint: (
    delivery: WebhookDelivery,
    context: WebhookReadContext,
  ) => WebhookEndpoint | null | Promise<WebhookEndpoint | null>;
  /** Reads the event, at every attempt; null when it no longer exists (terminal). */
  readonly event: (
    delivery: WebhookDelivery,
    context: WebhookReadContext,
  ) => WebhookEvent | null | Promise<WebhookEvent | null>;
  /** Where each attempt's row and the disabled endpoints are kept. Required. */
  readonly ledger: WebhookLedger;
  /** Consecutive failed attempts to one endpoint after which it is disabled: a positive integer. (Default: 10) */
  readonly disableAfter?: number;
  /** The ceiling of one HTTP request, from connect to the response status. (Default: '10s') */
  readonly timeout?: Duration;
  /** How failed deliveries are retried. (Default: 8 attempts, exponential from 30 s, at most 6 h apart) */
  readonly retry?: RetryPolicy;
  /** (Default: 'default') */
  readonly queue?: string;
  /** The signer's clock for `webhook-timestamp`, in epoch ms. (Default: Date.now) */
  readonly now?: () => number;
}

/** What a delivered attempt answers (the job's result). */
export interface WebhookDeliveryResult {
  readonly status: 'delivered';
  readonly responseCode: number;
  readonly durationMs: number;
}
