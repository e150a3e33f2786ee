import { type JobHandle, job } from '@x/jobs-core';
import { z } from 'zod';
import { registerWebhookRetryClasses } from '../errors.js';
import { deliverWebhook } from './deliver-webhook.js';
import { resolveWebhook } from './resolve-webhook.js';
import type { WebhookDefinition, WebhookDelivery, WebhookDeliveryResult } from './webhook-definition.js';

/** A webhook's job handle: `enqueue({ endpointId, eventId, orgId? })` delivers one event to one endpoint. */
export type WebhookHandle = JobHandle<WebhookDelivery, WebhookDeliveryResult, WebhookDelivery>;

const deliveryInput = z.object({
  endpointId: z.string().min(1),
  eventId: z.string().min(1).max(256),
  orgId: z.string().min(1).optional(),
});

/**
 * Declares an outbound webhook: a job that delivers one event to one endpoint, signed with the
 * Standard Webhooks scheme so receivers verify it with any existing library. Guarantees:
 * - one live delivery per `(endpointId, eventId)`: the idempotency key is `webhook:<endpointId>:<eventId>`,
 *   and `webhook-id` is the event id on every retry, so a receiver dedupes a redelivery;
 * - the endpoint and the event are read at every attempt, never checkpointed (a rotated secret or a
 *   corrected URL applies to the next retry, and no secret is stored on the row);
 * - one ledger row per attempt (status, response code, duration; never the secret or the body);
 * - a 2xx settles it; 5xx, 408, 425, a timeout or a network error retry with the backoff; 429 (and 503
 *   with `Retry-After`) retry when the receiver said, clamped by `retry.maxDelay`; another 4xx or a
 *   redirect is terminal; a 410, or `disableAfter` consecutive failures, disables the endpoint;
 * - the request is bounded by the job's `ctx.signal` and by `timeout`.
 *
 * Fields are checked here (`X_WEBHOOK_INVALID`, `meta.field`).
 */
export function webhook(definition: WebhookDefinition): WebhookHandle {
  registerWebhookRetryClasses();
  const resolved = resolveWebhook(definition);
  const { tenant } = resolved;
  return job({
    name: resolved.name,
    input: deliveryInput,
    idempotencyKey: ({ endpointId, eventId }) => `webhook:${endpointId}:${eventId}`,
    tenant: tenant === 'none' ? 'none' : (delivery) => tenant(delivery),
    retry: resolved.retry,
    ...(resolved.queue === undefined ? {} : { queue: resolved.queue }),
    run: ({ input, ctx }) => deliverWebhook(resolved, input, ctx),
  }) as WebhookHandle;
}
