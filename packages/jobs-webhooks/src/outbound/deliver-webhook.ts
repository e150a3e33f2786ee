import type { JobRunContext } from '@x/jobs-core';
import { webhookError } from '../errors.js';
import { signWebhook } from '../standard-webhooks/sign-webhook.js';
import { attemptError } from './attempt-error.js';
import { postWebhook } from './post-webhook.js';
import { readEndpoint, readEventBody } from './read-delivery-target.js';
import type { ResolvedWebhook } from './resolve-webhook.js';
import type { WebhookDelivery, WebhookDeliveryResult } from './webhook-definition.js';
import type { WebhookAttemptStatus } from './webhook-ledger.js';

const USER_AGENT = 'x-jobs-webhooks';

/**
 * One delivery attempt, the body of a webhook job: check the ledger's disabled set, read the
 * endpoint and the event (fresh, never from a checkpoint), sign, POST, record one ledger row, and
 * answer or throw what core's retry decision needs. After the row that makes `disableAfter`
 * consecutive failures, and on a 410, the endpoint is disabled and the attempt is terminal
 * (`X_WEBHOOK_ENDPOINT_DISABLED`). An attempt the job's signal cut short is recorded `interrupted`
 * and rethrows the signal's reason, so a drain hands the job back uncounted.
 */
export async function deliverWebhook(
  webhook: ResolvedWebhook,
  delivery: WebhookDelivery,
  ctx: JobRunContext,
): Promise<WebhookDeliveryResult> {
  const { endpointId, eventId } = delivery;
  const { ledger } = webhook;
  const startedAt = webhook.now();
  const clock = performance.now();
  const record = (status: WebhookAttemptStatus, responseCode: number | null, errorCode: string | null) =>
    ledger.record({
      endpointId,
      eventId,
      jobId: ctx.jobId,
      attempt: ctx.attempt,
      status,
      responseCode,
      durationMs: Math.round(performance.now() - clock),
      startedAt,
      errorCode,
    });

  const disabledFor = await ledger.disabled(endpointId);
  let body: string;
  let endpoint: Awaited<ReturnType<typeof readEndpoint>>;
  try {
    if (disabledFor !== null) throw disabledError(endpointId, disabledFor);
    endpoint = await readEndpoint(webhook, delivery, ctx);
    if (endpoint.disabled === true) throw disabledError(endpointId, 'app');
    body = await readEventBody(webhook, delivery, ctx);
  } catch (error) {
    const code = (error as { code?: string }).code ?? null;
    await record(code === 'X_WEBHOOK_ENDPOINT_DISABLED' ? 'disabled' : 'invalid', null, code);
    throw error;
  }

  const secrets = typeof endpoint.secret === 'string' ? [endpoint.secret] : endpoint.secret;
  const timestamp = Math.floor(webhook.now() / 1000);
  const signatures = secrets.map((secret) => signWebhook({ id: eventId, timestamp, body, secret }));
  const outcome = await postWebhook({
    url: endpoint.url,
    headers: {
      ...endpoint.headers,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatures[0],
      'webhook-signature': signatures.map((headers) => headers['webhook-signature']).join(' '),
    },
    body,
    timeoutMs: webhook.timeoutMs,
    signal: ctx.signal,
    now: webhook.now,
  });

  if (outcome.status === 'interrupted') {
    await record('interrupted', null, null).catch(() => undefined);
    throw outcome.cause;
  }
  const failure = outcome.status === 'delivered' ? undefined : attemptError(endpointId, outcome);
  const { consecutiveFailures } = await record(outcome.status, outcome.responseCode, failure?.code ?? null);
  if (failure === undefined) {
    return {
      status: 'delivered',
      responseCode: outcome.responseCode ?? 200,
      durationMs: Math.round(performance.now() - clock),
    };
  }
  if (outcome.status === 'gone') {
    await ledger.disable(endpointId, 'gone');
  } else if (consecutiveFailures >= webhook.disableAfter) {
    await ledger.disable(endpointId, 'failures');
    throw webhookError(
      'X_WEBHOOK_ENDPOINT_DISABLED',
      `Endpoint ${endpointId} failed ${consecutiveFailures} times in a row; it is disabled.`,
      { endpointId, reason: 'failures', consecutiveFailures },
      failure,
    );
  }
  throw failure;
}

function disabledError(endpointId: string, reason: string) {
  return webhookError('X_WEBHOOK_ENDPOINT_DISABLED', `Endpoint ${endpointId} is disabled (${reason}).`, {
    endpointId,
    reason,
  });
}
