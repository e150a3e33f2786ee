/**
 * The columns a claim answers (qualified by the alias `j`): only what `ClaimedJob` carries, plus
 * `seq` for ordering. Times come as whole epoch ms (`float8`), so the client parses a number
 * instead of a timestamp string into a `Date`; the worker id is the claimer's own and not echoed.
 * `extract` is exact (numeric) before the cast, so `trunc` gives the same ms a `Date` would.
 */
export const CLAIMED_COLUMNS = `j.id, j.seq, j.run_id, j.name, j.queue, j.payload, j.tenant_id, j.idempotency_key,
  j.priority, j.attempts, j.max_attempts, j.claim_token, j.enqueued_by, j.traceparent,
  trunc(extract(epoch from j.enqueued_at) * 1000)::float8 as enqueued_at,
  trunc(extract(epoch from j.run_at) * 1000)::float8 as run_at,
  trunc(extract(epoch from j.lease_expires_at) * 1000)::float8 as lease_expires_at`;
