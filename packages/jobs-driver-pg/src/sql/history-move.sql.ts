import { movedRow, ROW_COLUMNS } from './job-columns.js';
import { SETTLED_CTE } from './settle-notify.sql.js';

/**
 * SQL_CANCEL — cancels a live row (a `running` one too: its holder's next heartbeat, ack or step
 * save finds no row under its token): deletes it from `jobs` and writes it to `job_history` as
 * `cancelled`, in one statement. Sends the settle wake (SETTLED_CTE).
 *
 * Params: `$1` job id, `$2` reason or null.
 * Returns: `(id)` when it cancelled the row, no row when it is not live.
 */
export const SQL_CANCEL = `with gone as (
  delete from :"SCHEMA".jobs where id = $1::text and live
  returning *
), kept as (
  insert into :"SCHEMA".job_history (${ROW_COLUMNS})
  select ${movedRow('gone', {
    state: `'cancelled'`,
    cancel_reason: '$2::text',
    finished_at: 'now()',
    lease_expires_at: 'null',
  })} from gone
), ${SETTLED_CTE}
select id from gone cross join settled`;

/**
 * SQL_RETRY_MOVE — puts a finished row back in `jobs`, `ready` now with its attempts reset and
 * its run's record cleared (the last error stays, as before); it keeps its id, run id and `seq`.
 * A live row holding its key makes the insert fail with a unique violation (`X_JOB_DUPLICATE`),
 * which rolls the move back.
 *
 * Params: `$1` job id.
 * Returns: `(queue)` when it moved the row, no row when `job_history` has none with that id.
 */
export const SQL_RETRY_MOVE = `with gone as (
  delete from :"SCHEMA".job_history where id = $1::text
  returning *
)
insert into :"SCHEMA".jobs (${ROW_COLUMNS}) overriding system value
select ${movedRow('gone', {
  state: `'ready'`,
  attempts: '0',
  run_at: 'now()',
  started_at: 'null',
  finished_at: 'null',
  lease_expires_at: 'null',
  worker_id: 'null',
  claim_token: 'null',
  stop_reason: 'null',
  result: 'null',
  progress: 'null',
  waiting_for: 'null',
  cancel_reason: 'null',
})} from gone
returning queue`;
