import type { JobHandle, JsonValue } from '@x/jobs-core';

/** The input of a receiver's job: the verified event. */
export interface ReceivedWebhook {
  readonly eventId: string;
  readonly payload: JsonValue;
}

/** A receiver's job handle; `webhookHandler` answers its request handler. */
export type WebhookReceiverHandle<Result = unknown> = JobHandle<ReceivedWebhook, Result, ReceivedWebhook>;
