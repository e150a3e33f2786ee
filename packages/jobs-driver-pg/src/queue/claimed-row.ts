import type { ClaimedJob, JsonValue } from '@x/jobs-core';
import { toNumber } from '../row-values.js';

/** A row as a claim answers it (`CLAIMED_COLUMNS`). */
export interface ClaimedRow {
  readonly id: string;
  readonly seq: string | number;
  readonly run_id: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: JsonValue;
  readonly tenant_id: string | null;
  readonly idempotency_key: string;
  readonly priority: number;
  readonly attempts: number;
  readonly max_attempts: number;
  readonly claim_token: string;
  readonly enqueued_by: string | null;
  readonly traceparent: string | null;
  readonly enqueued_at: number;
  readonly run_at: number;
  readonly lease_expires_at: number;
}

/** A claimed row as the claimer `workerId` sees it. */
export function toClaimedJob(row: ClaimedRow, workerId: string): ClaimedJob {
  return {
    id: row.id,
    runId: row.run_id,
    name: row.name,
    queue: row.queue,
    payload: row.payload,
    tenantId: row.tenant_id,
    idempotencyKey: row.idempotency_key,
    priority: row.priority,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    enqueuedAt: row.enqueued_at,
    runAt: row.run_at,
    leaseExpiresAt: row.lease_expires_at,
    enqueuedBy: row.enqueued_by,
    traceparent: row.traceparent,
    claim: { workerId, token: row.claim_token },
  };
}

/** Claim order: higher priority first, then earlier run_at, then enqueue order. */
export function compareClaimOrder(a: ClaimedRow, b: ClaimedRow): number {
  return b.priority - a.priority || a.run_at - b.run_at || toNumber(a.seq) - toNumber(b.seq);
}
