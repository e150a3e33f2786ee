import { type JsonValue, job } from '@x/jobs-core';
import { z } from 'zod';
import { registerWebhookRetryClasses, webhookError } from '../errors.js';
import type { ReceivedWebhook, WebhookReceiverHandle } from './received-webhook.js';
import type { WebhookReceiverDefinition } from './receiver-definition.js';
import { createReceiverHandler, type WebhookRequestHandler } from './receiver-handler.js';
import { resolveReceiver } from './resolve-receiver.js';

const receivedInput = z.object({ eventId: z.string(), payload: z.json() });
const handlers = new WeakMap<object, WebhookRequestHandler>();

/**
 * Declares an inbound webhook: a job whose body is `handle`, fed by a request handler
 * ({@link webhookHandler}) that verifies the exact bytes, enqueues the verified event and only
 * then acknowledges. The job's idempotency key is the verified `eventId`, so a redelivery while
 * the job is live dedupes (`deduped: true`); once it settled, a redelivery runs `handle` again —
 * at least once: keep your own seen-set where `handle` writes. `handle` receives the payload as
 * `verify` answered it and is never asked to verify again (a retry an hour later would fail a
 * 5-minute window). Fields are checked here (`X_WEBHOOK_RECEIVER_INVALID`, `meta.field`).
 */
export function webhookReceiver<Result>(
  definition: WebhookReceiverDefinition<Result>,
): WebhookReceiverHandle<Result> {
  registerWebhookRetryClasses();
  const receiver = resolveReceiver(definition as WebhookReceiverDefinition<unknown>);
  const { tenant, handle: body } = definition;
  const handle = job({
    name: receiver.name,
    input: receivedInput,
    idempotencyKey: ({ eventId }) => eventId,
    tenant: tenant === 'none' ? 'none' : (event) => tenant(event as ReceivedWebhook),
    ...(definition.queue === undefined ? {} : { queue: definition.queue }),
    ...(definition.retry === undefined ? {} : { retry: definition.retry }),
    run: ({ input, step, ctx }) =>
      body({ eventId: input.eventId, payload: input.payload as JsonValue, step, ctx }),
  }) as unknown as WebhookReceiverHandle<Result>;
  handlers.set(handle, createReceiverHandler(handle as WebhookReceiverHandle, receiver));
  return handle;
}

/**
 * The web-standard request handler of a receiver, `(request: Request) => Promise<Response>`:
 * mount it on any route (`app.post('/hooks/vendor', (c) => webhookHandler(vendorEvents)(c.req.raw))`).
 * A handle not made by `webhookReceiver()` is `X_WEBHOOK_RECEIVER_INVALID`.
 */
export function webhookHandler(handle: WebhookReceiverHandle<unknown>): WebhookRequestHandler {
  const handler = typeof handle === 'object' && handle !== null ? handlers.get(handle) : undefined;
  if (handler === undefined) {
    throw webhookError('X_WEBHOOK_RECEIVER_INVALID', 'Expected a handle made by webhookReceiver().', {
      field: 'handle',
    });
  }
  return handler;
}
