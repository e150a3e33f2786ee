import type { JobsError } from '@x/jobs-core';
import { type WebhookErrorCode, webhookError } from '../errors.js';
import type { PostOutcome } from './post-webhook.js';

/**
 * The error a failed POST throws, which core's retry classes turn into the decision: `failed` and
 * `timeout` retry with the backoff, `throttled` after `meta.retryAfterSeconds`, `rejected` and
 * `gone` dead-letter now. `meta` holds the endpoint id and response code, never the URL or a secret.
 */
export function attemptError(endpointId: string, outcome: PostOutcome): JobsError<WebhookErrorCode> {
  const { status, responseCode } = outcome;
  const meta = { endpointId, responseCode };
  switch (status) {
    case 'throttled':
      return webhookError(
        'X_WEBHOOK_DELIVERY_THROTTLED',
        `Webhook to endpoint ${endpointId} throttled (${responseCode}).`,
        outcome.retryAfterSeconds === undefined
          ? meta
          : { ...meta, retryAfterSeconds: outcome.retryAfterSeconds },
      );
    case 'rejected':
      return webhookError(
        'X_WEBHOOK_DELIVERY_REJECTED',
        `Webhook to endpoint ${endpointId} rejected (${responseCode}).`,
        meta,
      );
    case 'gone':
      return webhookError(
        'X_WEBHOOK_ENDPOINT_DISABLED',
        `Endpoint ${endpointId} answered 410 Gone; it is disabled.`,
        {
          ...meta,
          reason: 'gone',
        },
      );
    case 'timeout':
      return webhookError('X_WEBHOOK_DELIVERY_FAILED', `Webhook to endpoint ${endpointId} timed out.`, {
        ...meta,
        reason: 'timeout',
      });
    default:
      return webhookError(
        'X_WEBHOOK_DELIVERY_FAILED',
        `Webhook to endpoint ${endpointId} failed (${responseCode ?? 'no response'}).`,
        { ...meta, reason: responseCode === null ? 'network' : 'status' },
        outcome.cause,
      );
  }
}
