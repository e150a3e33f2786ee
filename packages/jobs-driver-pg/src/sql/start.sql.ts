import { HIT_ROWS, probedEntries } from './fenced-batch.sql.js';

/**
 * A one-row FROM item that sets `synchronous_commit = off` for the statement's own transaction
 * (`set_config(…, true)`: transaction-local): its commit returns without waiting for the WAL flush.
 */
const ASYNC_COMMIT = `(select set_config('synchronous_commit', 'off', true)) as async_commit`;

/**
 * SQL_START — records that a claim's body is about to run: counts one attempt, stamps
 * `started_at` (the mark a release or suspend reads to hand the attempt back) and extends the lease
 * to `now() + $3 ms`. Fenced on the claim, and once per claim: the claim set `started_at` to null,
 * so a second start, like one whose claim lost the row, updates nothing; nor does the start of a row
 * whose attempts reached `max_attempts` (attempts never pass the cap). A HOT update: no index
 * covers a column it sets.
 *
 * It commits with `synchronous_commit = off` (for its own transaction only: {@link ASYNC_COMMIT}):
 * a body waits for its start, and the WAL flush was most of that wait. The count is committed and
 * visible to every session before the body runs, so a worker that dies in the body leaves it
 * counted; only a crash of the Postgres server itself within the WAL writer's delay (≈ 200 ms,
 * unless a later commit flushed it first) can lose it — and with it that one attempt's count, not
 * the row, its claim or any settle.
 *
 * Params: `$1` job id, `$2` claim token, `$3` float8 visibility timeout ms.
 * Returns: `(id)` when it landed, no row when the claim no longer holds the row or already started.
 */
export const SQL_START = `update :"SCHEMA".jobs
set attempts = attempts + 1, started_at = now(),
  lease_expires_at = now() + $3::float8 * interval '1 millisecond'
from ${ASYNC_COMMIT}
where id = $1::text and claim_token = $2::text and state = 'running' and started_at is null
  and attempts < max_attempts
returning id`;

/**
 * SQL_START_MANY — SQL_START for a batch (committed the same way): the starts that arrive while earlier batches commit go
 * out as one statement, each fenced on its own token. An (id, token) pair given twice lands once.
 * Each row is found by a primary-key probe and written by `ctid`, unlocked (fenced-batch.sql.ts).
 *
 * Params: arrays of equal length — `$1` job ids, `$2` claim tokens, `$3` float8 visibility
 * timeouts ms.
 * Returns: `(landed)` for every start that landed: its 1-based position in the arrays.
 */
export const SQL_START_MANY = `with ${probedEntries(
  'unnest($1::text[], $2::text[], $3::float8[]) with ordinality as e(id, token, ms, ord)',
  ' and j.started_at is null and j.attempts < j.max_attempts',
  false,
)}
update :"SCHEMA".jobs j
set attempts = j.attempts + 1, started_at = now(),
  lease_expires_at = now() + hit.ms * interval '1 millisecond'
from hit, ${ASYNC_COMMIT}
where ${HIT_ROWS} and j.ctid = hit.row_ctid
returning hit.ord::int as landed`;
