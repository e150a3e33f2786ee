import type { Migration } from './migration.js';

/** Every column of a job row, in table order: what a move between `jobs` and `job_history` copies. */
const COLUMNS = `id, seq, run_id, name, queue, state, payload, tenant_id, idempotency_key, priority, attempts,
  max_attempts, enqueued_at, run_at, started_at, finished_at, lease_expires_at, worker_id, claim_token,
  last_error, stop_reason, result, progress, waiting_for, cancel_reason, enqueued_by, traceparent`;

/**
 * Finished rows leave the hot table: `job_history` holds every `done`, `dead` and `cancelled`
 * row, written by the statement that settles it (a `DELETE … RETURNING` from `jobs` feeding an
 * `INSERT`), so `jobs` — its heap and its claim, dedupe and run-id indexes — holds live rows only
 * and never carries a backlog of finished ones between purges.
 *
 * `job_history` is shaped for append and its reads: no fillfactor room (a row is written once),
 * the primary key (get by id, a republished id, retry), `run_id` (a run's steps outlive its row
 * only while some row carries the run), a BRIN index over `finished_at` (retention purges and
 * time windows: rows arrive in finish order, so a block range summary is as good as a b-tree
 * here at a fraction of the write cost), and a partial index over the failed rows only (`dead`
 * and `cancelled` by queue, newest first: the dead-letter view), which a `done` row never writes.
 * `seq` is copied, so a listing across both tables keeps enqueue order; a retried row goes back
 * to `jobs` with its `seq`.
 *
 * Existing finished rows move in this migration (one `INSERT … SELECT` and one `DELETE` in the
 * migration's transaction, so a database holding many takes an exclusive lock on `jobs` for that
 * long); `jobs_finished_idx` goes, since no row in `jobs` has a finish time any more.
 */
export const MIGRATION_0004_JOB_HISTORY: Migration = {
  version: 4,
  name: 'job-history',
  statements: [
    `create table :"SCHEMA".job_history (
  id text primary key,
  seq bigint not null,
  run_id text not null,
  name text not null,
  queue text not null,
  state text not null check (state in ('done', 'dead', 'cancelled')),
  payload jsonb not null,
  tenant_id text,
  idempotency_key text not null,
  priority integer not null,
  attempts integer not null,
  max_attempts integer not null,
  enqueued_at timestamptz not null,
  run_at timestamptz not null,
  started_at timestamptz,
  finished_at timestamptz not null,
  lease_expires_at timestamptz,
  worker_id text,
  claim_token text,
  last_error jsonb,
  stop_reason text check (stop_reason in ('terminal', 'attempts-exhausted')),
  result jsonb,
  progress jsonb,
  waiting_for text,
  cancel_reason text,
  enqueued_by text,
  traceparent text
)`,
    `create index job_history_run_id_idx on :"SCHEMA".job_history (run_id)`,
    `create index job_history_finished_idx on :"SCHEMA".job_history using brin (finished_at)`,
    `create index job_history_failed_idx on :"SCHEMA".job_history (queue, seq desc) where state <> 'done'`,
    `lock table :"SCHEMA".jobs in exclusive mode`,
    `insert into :"SCHEMA".job_history (${COLUMNS})
select ${COLUMNS.replace('finished_at', 'coalesce(finished_at, now())')}
from :"SCHEMA".jobs where not live
order by seq`,
    `delete from :"SCHEMA".jobs where not live`,
    `drop index :"SCHEMA".jobs_finished_idx`,
  ],
};
