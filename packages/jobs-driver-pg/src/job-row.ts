import type { JobErrorRecord, JobRecord, JobState, JsonValue, StopReason } from '@x/jobs-core';
import type { JobProgress } from '@x/jobs-core/driver';
import { epochMs, epochMsOrNull } from './row-values.js';

/** A whole `jobs` row, as introspection reads it. */
export interface JobRow {
  readonly id: string;
  readonly seq: string | number;
  readonly run_id: string;
  readonly name: string;
  readonly queue: string;
  readonly state: JobState;
  readonly payload: JsonValue;
  readonly tenant_id: string | null;
  readonly idempotency_key: string;
  readonly priority: number;
  readonly attempts: number;
  readonly max_attempts: number;
  readonly enqueued_at: unknown;
  readonly run_at: unknown;
  readonly started_at: unknown;
  readonly finished_at: unknown;
  readonly lease_expires_at: unknown;
  readonly worker_id: string | null;
  readonly claim_token: string | null;
  readonly last_error: JobErrorRecord | null;
  readonly stop_reason: StopReason | null;
  readonly result: JsonValue | null;
  readonly progress: JobProgress | null;
  readonly waiting_for: string | null;
  readonly cancel_reason: string | null;
  readonly enqueued_by: string | null;
  readonly traceparent: string | null;
}

/** A row as introspection sees it. */
export function toJobRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    runId: row.run_id,
    name: row.name,
    queue: row.queue,
    state: row.state,
    payload: row.payload,
    tenantId: row.tenant_id,
    idempotencyKey: row.idempotency_key,
    priority: row.priority,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    enqueuedAt: epochMs(row.enqueued_at),
    runAt: epochMs(row.run_at),
    startedAt: epochMsOrNull(row.started_at),
    finishedAt: epochMsOrNull(row.finished_at),
    leaseExpiresAt: epochMsOrNull(row.lease_expires_at),
    workerId: row.worker_id,
    lastError: row.last_error,
    stopReason: row.stop_reason,
    result: row.result ?? null,
    progress: row.progress,
    waitingFor: row.waiting_for,
    cancelReason: row.cancel_reason,
    enqueuedBy: row.enqueued_by,
    traceparent: row.traceparent,
  };
}
