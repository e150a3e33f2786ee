import type { JobRecord, JsonValue } from '@x/jobs-core';
import type {
  AttemptErrorRecord,
  AttemptFailure,
  ClaimedJob,
  ClaimRef,
  ErrorCauseRecord,
} from '@x/jobs-core/driver';
import { ATTEMPT_ERROR_LIMITS } from '@x/jobs-core/driver';
import { copyJson } from './json-copy.js';
import type { MemoryJobRow } from './memory-job-row.js';

/** The public view of a row (no token, no internal order or scope), with its JSON copied. */
export function toJobRecord(row: MemoryJobRow): JobRecord {
  const {
    token: _token,
    seq: _seq,
    scope: _scope,
    indexSlot: _slot,
    errors: _errors,
    payloadJson,
    ...record
  } = row;
  return {
    ...record,
    payload: JSON.parse(payloadJson) as JsonValue,
    result: copyJson(row.result),
    lastError: row.lastError === null ? null : { ...row.lastError },
    progress: row.progress === null ? null : { ...row.progress },
  };
}

/** The row's failed attempts' records, oldest first, copied (a record is plain JSON). */
export function attemptErrorsOf(row: MemoryJobRow): AttemptErrorRecord[] {
  return row.errors === null ? [] : row.errors.map((record) => ({ ...record, causes: copyCauses(record) }));
}

function copyCauses(failure: AttemptFailure): ErrorCauseRecord[] {
  return failure.causes.map((cause) => ({ ...cause }));
}

/**
 * Appends `failure`, stored at `at`, to the row's attempt errors, keeping the newest
 * `ATTEMPT_ERROR_LIMITS.perJob`. The record is copied: the caller keeps no reference into the store.
 */
export function recordAttemptError(row: MemoryJobRow, failure: AttemptFailure, at: number): void {
  const stored: AttemptErrorRecord = { ...failure, causes: copyCauses(failure), at };
  const kept = row.errors ?? [];
  kept.push(stored);
  if (kept.length > ATTEMPT_ERROR_LIMITS.perJob) kept.splice(0, kept.length - ATTEMPT_ERROR_LIMITS.perJob);
  row.errors = kept;
}

/**
 * The row as handed to its claimer under `claim` (a fresh object it may keep), leased until
 * `leaseExpiresAt`; its `attempt` is the number the attempt gets once started (read before the
 * claim counts a start of its own), and it is `lapsed` when the row was `running` under a lease
 * that lapsed (read before the claim marks it `running`).
 */
export function toClaimedJob(
  row: MemoryJobRow,
  claim: ClaimRef,
  leaseExpiresAt: number,
  started: boolean,
): ClaimedJob {
  return {
    id: row.id,
    runId: row.runId,
    name: row.name,
    queue: row.queue,
    payload: JSON.parse(row.payloadJson) as JsonValue,
    tenantId: row.tenantId,
    idempotencyKey: row.idempotencyKey,
    priority: row.priority,
    attempt: row.attempts + 1,
    maxAttempts: row.maxAttempts,
    enqueuedAt: row.enqueuedAt,
    runAt: row.runAt,
    leaseExpiresAt,
    enqueuedBy: row.enqueuedBy,
    traceparent: row.traceparent,
    claim,
    started,
    lapsed: row.state === 'running',
  };
}
