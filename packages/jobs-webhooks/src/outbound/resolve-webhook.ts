import { parseDuration, type RetryPolicy } from '@x/jobs-core';
import { webhookError } from '../errors.js';
import type { WebhookDefinition } from './webhook-definition.js';

/** The default of `disableAfter`. */
export const DEFAULT_WEBHOOK_DISABLE_AFTER = 10;
/** The default of `timeout`, in ms. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The default retry policy of a delivery: 8 attempts over about two hours. */
export const DEFAULT_WEBHOOK_RETRY: RetryPolicy = {
  attempts: 8,
  backoff: 'exponential',
  delay: '30s',
  maxDelay: '6h',
};

/** A checked webhook definition with defaults applied. */
export interface ResolvedWebhook
  extends Omit<WebhookDefinition, 'disableAfter' | 'timeout' | 'retry' | 'now'> {
  readonly disableAfter: number;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly now: () => number;
}

/** Checks a webhook definition at declaration; each refusal is `X_WEBHOOK_INVALID` naming `meta.field`. */
export function resolveWebhook(definition: WebhookDefinition): ResolvedWebhook {
  if (typeof definition !== 'object' || definition === null)
    throw invalid('definition', 'expected an object');
  const { name, tenant, endpoint, event, ledger, disableAfter, timeout } = definition;
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'required, a non-empty string');
  if (tenant !== 'none' && typeof tenant !== 'function')
    throw invalid('tenant', "required, (delivery) => orgId or 'none'");
  if (typeof endpoint !== 'function') throw invalid('endpoint', 'required, (delivery) => endpoint | null');
  if (typeof event !== 'function') throw invalid('event', 'required, (delivery) => event | null');
  if (
    typeof ledger !== 'object' ||
    ledger === null ||
    typeof ledger.record !== 'function' ||
    typeof ledger.disable !== 'function' ||
    typeof ledger.disabled !== 'function'
  ) {
    throw invalid('ledger', 'required, a WebhookLedger { record, disable, disabled }');
  }
  if (disableAfter !== undefined && (!Number.isSafeInteger(disableAfter) || disableAfter < 1)) {
    throw invalid('disableAfter', 'a positive integer');
  }
  let timeoutMs = DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (timeout !== undefined) {
    try {
      timeoutMs = parseDuration(timeout);
    } catch {
      throw invalid('timeout', "a positive duration ('10s')");
    }
  }
  return {
    ...definition,
    disableAfter: disableAfter ?? DEFAULT_WEBHOOK_DISABLE_AFTER,
    timeoutMs,
    retry: definition.retry ?? DEFAULT_WEBHOOK_RETRY,
    now: definition.now ?? Date.now,
  };
}

function invalid(field: string, problem: string) {
  return webhookError('X_WEBHOOK_INVALID', `webhook() ${field}: ${problem}.`, { field });
}
