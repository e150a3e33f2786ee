import { type JobDriver, jobDriver } from '@x/jobs-core';
import { type EnqueueRequest, prepareEnqueue } from '@x/jobs-core/driver';
import { isValidEventId } from './event-id.js';
import { readLimitedBody } from './read-limited-body.js';
import type { WebhookReceiverHandle } from './received-webhook.js';
import type { VerifiedWebhook } from './receiver-definition.js';
import { jsonResponse, refusal } from './receiver-response.js';
import type { ResolvedReceiver } from './resolve-receiver.js';

/** A web-standard request handler: what `Bun.serve`, Deno, Hono or a Node adapter call. */
export type WebhookRequestHandler = (request: Request) => Promise<Response>;

const decoder = new TextDecoder();

/**
 * The handler of one receiver, in this order (each step only after the one before it):
 * 1. anything but POST → 405;
 * 2. the exact bytes, at most `maxBytes` → 413 beyond, the rest left unread; nothing is parsed;
 * 3. `verify` → 401 when it throws or answers nothing; a `{ response }` it answers is returned as is;
 * 4. the `eventId` it answered: 1–256 printable ASCII → else 422, never echoed;
 * 5. the event is enqueued directly into the driver (never staged in an outbox, whose commit the
 *    sender would not wait for) → 503 with `Retry-After` when that fails, so the sender redelivers;
 * 6. only then 200 `{ eventId, deduped }`: `deduped: true` for a redelivery while its job is live.
 */
export function createReceiverHandler(
  handle: WebhookReceiverHandle,
  receiver: ResolvedReceiver,
): WebhookRequestHandler {
  return async (request) => {
    if (request.method !== 'POST') return refusal(405, 'X_WEBHOOK_METHOD_NOT_ALLOWED', { allow: 'POST' });
    const body = await readLimitedBody(request, receiver.maxBytes);
    if (!body.ok) return refusal(413, 'X_WEBHOOK_PAYLOAD_TOO_LARGE', { connection: 'close' });
    const { bytes } = body;
    let verified: VerifiedWebhook | { response: Response };
    try {
      verified = await receiver.verify({
        bytes,
        headers: request.headers,
        url: request.url,
        text: () => decoder.decode(bytes),
      });
    } catch {
      return refusal(401, 'X_WEBHOOK_SIGNATURE_INVALID');
    }
    if (typeof verified !== 'object' || verified === null) return refusal(401, 'X_WEBHOOK_SIGNATURE_INVALID');
    if ('response' in verified && verified.response instanceof Response) return verified.response;
    const { eventId, payload } = verified as VerifiedWebhook;
    if (!isValidEventId(eventId)) return refusal(422, 'X_WEBHOOK_EVENT_ID_INVALID');
    let enqueue: EnqueueRequest;
    try {
      enqueue = prepareEnqueue(handle, { eventId, payload });
    } catch {
      return refusal(422, 'X_JOB_INPUT_INVALID');
    }
    try {
      const driver: JobDriver = receiver.driver ?? jobDriver();
      const { deduped } = await driver.enqueue(enqueue);
      return jsonResponse(200, { eventId, deduped });
    } catch {
      return refusal(503, 'X_WEBHOOK_RECEIVER_UNAVAILABLE', {
        'retry-after': String(receiver.retryAfterSeconds),
      });
    }
  };
}
