import type { JsonValue } from '@x/jobs-core';
import { isJobsError } from '@x/jobs-core';
import { webhookError } from '../errors.js';
import { webhookSecretKey } from '../standard-webhooks/webhook-secret.js';
import type { ResolvedWebhook } from './resolve-webhook.js';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookReadContext,
} from './webhook-definition.js';

/**
 * Reads the endpoint for this attempt and checks it: null is `X_WEBHOOK_ENDPOINT_UNKNOWN`; a URL
 * that is not `http(s):` or a secret that is not `whsec_<base64>` is `X_WEBHOOK_ENDPOINT_INVALID`.
 * The message and meta name the endpoint id only, never the URL or the secret.
 */
export async function readEndpoint(
  webhook: ResolvedWebhook,
  delivery: WebhookDelivery,
  context: WebhookReadContext,
): Promise<WebhookEndpoint> {
  const { endpointId } = delivery;
  const endpoint = await webhook.endpoint(delivery, context);
  if (endpoint === null || endpoint === undefined) {
    throw webhookError('X_WEBHOOK_ENDPOINT_UNKNOWN', `Endpoint ${endpointId} no longer exists.`, {
      endpointId,
    });
  }
  const invalid = (problem: string) =>
    webhookError('X_WEBHOOK_ENDPOINT_INVALID', `Endpoint ${endpointId}: ${problem}.`, { endpointId });
  let protocol: string;
  try {
    protocol = new URL(endpoint.url).protocol;
  } catch {
    throw invalid('its url is not a URL');
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw invalid('its url is not http(s)');
  const secrets = typeof endpoint.secret === 'string' ? [endpoint.secret] : (endpoint.secret ?? []);
  if (secrets.length === 0) throw invalid('it has no secret');
  for (const secret of secrets) {
    try {
      webhookSecretKey(secret);
    } catch (error) {
      if (isJobsError(error, 'X_WEBHOOK_SECRET_INVALID')) throw invalid("a secret is not 'whsec_<base64>'");
      throw error;
    }
  }
  return endpoint;
}

/**
 * Reads the event for this attempt and serialises the body Standard Webhooks recommends:
 * `{ type, timestamp, data }`. Null is `X_WEBHOOK_EVENT_UNKNOWN`; no string `type`, or a `data`
 * JSON cannot hold, is `X_WEBHOOK_EVENT_INVALID`.
 */
export async function readEventBody(
  webhook: ResolvedWebhook,
  delivery: WebhookDelivery,
  context: WebhookReadContext,
): Promise<string> {
  const { eventId } = delivery;
  const event: WebhookEvent | null = await webhook.event(delivery, context);
  if (event === null || event === undefined) {
    throw webhookError('X_WEBHOOK_EVENT_UNKNOWN', `Event ${eventId} no longer exists.`, { eventId });
  }
  const invalid = (problem: string) =>
    webhookError('X_WEBHOOK_EVENT_INVALID', `Event ${eventId}: ${problem}.`, { eventId });
  if (typeof event.type !== 'string' || event.type === '') throw invalid('type must be a non-empty string');
  const occurredAt = event.occurredAt ?? new Date(webhook.now());
  if (!(occurredAt instanceof Date) || Number.isNaN(occurredAt.getTime()))
    throw invalid('occurredAt must be a valid Date');
  let body: string | undefined;
  try {
    body = JSON.stringify({
      type: event.type,
      timestamp: occurredAt.toISOString(),
      data: event.data as JsonValue,
    });
  } catch {
    body = undefined;
  }
  if (body === undefined || event.data === undefined) throw invalid('data must be a JSON value');
  return body;
}
