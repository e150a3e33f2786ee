import { HIT_ROWS, probedEntries } from './fenced-batch.sql.js';
import { movedRow, ROW_COLUMNS } from './job-columns.js';
import { SETTLED_CTE } from './settle-notify.sql.js';

/** What a `done` row looks like in `job_history`: its result, its finish time, no lease. */
const doneRow = (alias: string, result: string): string =>
  movedRow(alias, { state: `'done'`, result, finished_at: 'now()', lease_expires_at: 'null' });

/**
 * SQL_ACK — settles one claimed row `done` with its result: deletes it from `jobs` and writes it
 * to `job_history` in the same statement, so the hot table never holds it. Fenced: lands only
 * while the row is `running` under the caller's claim token. Sends the settle wake (SETTLED_CTE).
 *
 * Params: `$1` job id, `$2` claim token, `$3` result (JSON text, null for none).
 * Returns: `(id)` when it landed, no row when the claim no longer holds the row.
 */
export const SQL_ACK = `with gone as (
  delete from :"SCHEMA".jobs
  where id = $1::text and claim_token = $2::text and state = 'running'
  returning *
), kept as (
  insert into :"SCHEMA".job_history (${ROW_COLUMNS})
  select ${doneRow('gone', '$3::text::jsonb')} from gone
), ${SETTLED_CTE}
select id from gone cross join settled`;

/** An ack batch: parallel arrays of job ids, claim tokens and results (JSON text). */
const ACK_ENTRIES = 'unnest($1::text[], $2::text[], $3::text[]) with ordinality as e(id, token, result, ord)';

/**
 * SQL_ACK_MANY — SQL_ACK for a batch: the driver gathers the acks that arrive while earlier
 * batches commit into one statement (one round trip and one commit for many jobs), each fenced on
 * its own token. An (id, token) pair given twice lands once. One settle wake for the batch.
 *
 * Params: arrays of equal length — `$1` job ids, `$2` claim tokens, `$3` results (JSON text).
 * Returns: `(acked)` for every ack that landed: its 1-based position in the arrays.
 */
export const SQL_ACK_MANY = `with ${probedEntries(ACK_ENTRIES)}, gone as (
  delete from :"SCHEMA".jobs j where ${HIT_ROWS}
  returning j.ctid as gone_ctid, j.*
), acked as (
  select distinct on (gone.gone_ctid) gone.*, hit.result as acked_result, hit.ord
  from gone join hit on hit.row_ctid = gone.gone_ctid
  order by gone.gone_ctid, hit.ord
), kept as (
  insert into :"SCHEMA".job_history (${ROW_COLUMNS})
  select ${doneRow('acked', 'acked.acked_result::jsonb')} from acked
), ${SETTLED_CTE}
select ord::int as acked from acked cross join settled`;

/**
 * The steps of the runs in `gone` (a CTE of `(id, run_id)` rows leaving both tables) that no row
 * left in either table carries. The statement's snapshot still shows the `gone` rows, hence the
 * `not in`.
 */
const STEPS_OF_GONE_RUNS = `delete from :"SCHEMA".steps s
  where s.run_id in (select run_id from gone)
    and not exists (
      select 1 from :"SCHEMA".jobs o where o.run_id = s.run_id and o.id not in (select id from gone)
    )
    and not exists (select 1 from :"SCHEMA".job_history o where o.run_id = s.run_id)`;

/**
 * SQL_ACK_DROP — SQL_ACK under `retention: { done: 0 }`: the row and its run's steps are deleted,
 * nothing is kept (graphile-worker's model). A job with no steps pays one probe of `steps`. Sends
 * the settle wake (an awaiter re-reads and finds no row: it waits on, as for any removed row).
 *
 * Params: `$1` job id, `$2` claim token (no result: nothing keeps it).
 * Returns: as SQL_ACK.
 */
export const SQL_ACK_DROP = `with gone as (
  delete from :"SCHEMA".jobs
  where id = $1::text and claim_token = $2::text and state = 'running'
  returning id, run_id
), steps_gone as (
  ${STEPS_OF_GONE_RUNS}
), ${SETTLED_CTE}
select id from gone cross join settled`;

/**
 * SQL_ACK_MANY_DROP — SQL_ACK_MANY under `retention: { done: 0 }`: rows and their runs' steps
 * deleted, nothing kept.
 *
 * Params and returns: as SQL_ACK_MANY (`$3` is ignored).
 */
export const SQL_ACK_MANY_DROP = `with ${probedEntries(ACK_ENTRIES)}, gone as (
  delete from :"SCHEMA".jobs j where ${HIT_ROWS}
  returning j.ctid as gone_ctid, j.id, j.run_id
), steps_gone as (
  ${STEPS_OF_GONE_RUNS}
), ${SETTLED_CTE}
select hit.ord::int as acked from gone join hit on hit.row_ctid = gone.gone_ctid cross join settled`;
