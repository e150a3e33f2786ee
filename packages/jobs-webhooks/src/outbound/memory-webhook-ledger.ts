import {
  FAILED_ATTEMPT_STATUSES,
  type WebhookAttempt,
  type WebhookDisableReason,
  type WebhookLedger,
} from './webhook-ledger.js';

/** The in-memory ledger: the {@link WebhookLedger} plus readers and an operator's `enable`. */
export interface MemoryWebhookLedger extends WebhookLedger {
  /** Every attempt recorded, oldest first (optionally of one endpoint). */
  attempts(endpointId?: string): readonly WebhookAttempt[];
  /** Re-enables an endpoint and resets its failure count. */
  enable(endpointId: string): Promise<void>;
}

/**
 * A ledger in process memory: for tests and dev only — nothing survives the process, and two
 * processes each see their own. Production passes a `WebhookLedger` over its own table.
 */
export function memoryWebhookLedger(): MemoryWebhookLedger {
  const rows: WebhookAttempt[] = [];
  const failures = new Map<string, number>();
  const disabledEndpoints = new Map<string, WebhookDisableReason>();
  return {
    async record(attempt) {
      rows.push({ ...attempt });
      let count = failures.get(attempt.endpointId) ?? 0;
      if (attempt.status === 'delivered') count = 0;
      else if (FAILED_ATTEMPT_STATUSES.has(attempt.status)) count += 1;
      failures.set(attempt.endpointId, count);
      return { consecutiveFailures: count };
    },
    async disable(endpointId, reason) {
      if (!disabledEndpoints.has(endpointId)) disabledEndpoints.set(endpointId, reason);
    },
    async disabled(endpointId) {
      return disabledEndpoints.get(endpointId) ?? null;
    },
    async enable(endpointId) {
      disabledEndpoints.delete(endpointId);
      failures.delete(endpointId);
    },
    attempts: (endpointId) => rows.filter((row) => endpointId === undefined || row.endpointId === endpointId),
  };
}
