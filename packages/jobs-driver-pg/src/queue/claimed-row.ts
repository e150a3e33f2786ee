import type { ClaimedJob } from '@x/jobs-core/driver';
import type { JobRow } from '../job-row.js';
import { toNumber } from '../row-values.js';

/** A row as a claim answers it (`CLAIMED_COLUMNS`): the job's fields, its token, times as epoch ms. */
export interface ClaimedRow
  extends Pick<
    JobRow,
    | 'id'
    | 'seq'
    | 'run_id'
    | 'name'
    | 'queue'
    | 'payload'
    | 'tenant_id'
    | 'idempotency_key'
    | 'priority'
    | 'attempts'
    | 'max_attempts'
    | 'enqueued_by'
    | 'traceparent'
  > {
  readonly claim_token: string;
  readonly enqueued_at: number;
  readonly run_at: number;
  readonly lease_expires_at: number;
  /** True when the claim started it (`ClaimOptions.start`): `attempts` already counts it. */
  readonly started: boolean;
  /** True when the claim took it from a `running` row whose lease lapsed. */
  readonly lapsed: boolean;
}

/** A claimed row as the claimer `workerId` sees it: `attempt` is the number its start will count. */
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
    attempt: row.started ? row.attempts : row.attempts + 1,
    maxAttempts: row.max_attempts,
    enqueuedAt: row.enqueued_at,
    runAt: row.run_at,
    leaseExpiresAt: row.lease_expires_at,
    enqueuedBy: row.enqueued_by,
    traceparent: row.traceparent,
    claim: { workerId, token: row.claim_token },
    started: row.started,
    lapsed: row.lapsed,
  };
}

/** Claim order: higher priority first, then earlier run_at, then enqueue order. */
export function compareClaimOrder(a: ClaimedRow, b: ClaimedRow): number {
  return b.priority - a.priority || a.run_at - b.run_at || toNumber(a.seq) - toNumber(b.seq);
}
