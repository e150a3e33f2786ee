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

/** The columns a job row has in both `jobs` and `job_history`, in table order (`live` is jobs' own). */
export const ROW_COLUMN_NAMES = [
  'id',
  'seq',
  'run_id',
  'name',
  'queue',
  'state',
  'payload',
  'tenant_id',
  'idempotency_key',
  'priority',
  'attempts',
  'max_attempts',
  'enqueued_at',
  'run_at',
  'started_at',
  'finished_at',
  'lease_expires_at',
  'worker_id',
  'claim_token',
  'last_error',
  'stop_reason',
  'result',
  'progress',
  'waiting_for',
  'cancel_reason',
  'enqueued_by',
  'traceparent',
] as const;

/**
 * Every column a row carries when it moves between `jobs` and `job_history`: the row's columns plus
 * `attempt_errors` (migration 6), which only `get` reads (a listing leaves it).
 */
export const MOVED_COLUMN_NAMES = [...ROW_COLUMN_NAMES, 'attempt_errors'] as const;

/** One column a moved row carries. */
export type RowColumn = (typeof MOVED_COLUMN_NAMES)[number];

/** {@link MOVED_COLUMN_NAMES} as an insert column list. */
export const ROW_COLUMNS = MOVED_COLUMN_NAMES.join(', ');

/**
 * The select list that copies a row read as `alias` into the other table, with some columns set
 * to SQL expressions instead (`{ state: `'done'`, finished_at: 'now()' }`): how a settle moves a
 * row into `job_history` and a retry moves it back.
 */
export function movedRow(alias: string, set: Partial<Record<RowColumn, string>>): string {
  return MOVED_COLUMN_NAMES.map((column) => set[column] ?? `${alias}.${column}`).join(', ');
}
