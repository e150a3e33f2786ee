/**
 * The job columns every statement that answers a job row returns, in the shape `job-row.ts`
 * maps to `ClaimedJob` / `JobRecord`. Qualified by the alias `j`.
 */
export const JOB_COLUMNS = `j.id, j.seq, j.run_id, j.name, j.queue, j.state, j.payload, j.tenant_id, j.idempotency_key,
  j.priority, j.attempts, j.max_attempts, j.enqueued_at, j.run_at, j.started_at, j.finished_at,
  j.lease_expires_at, j.worker_id, j.claim_token, j.last_error, j.stop_reason, j.result, j.progress,
  j.waiting_for, j.cancel_reason, j.enqueued_by, j.traceparent`;
