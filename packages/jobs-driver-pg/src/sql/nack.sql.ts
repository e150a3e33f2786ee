import { HIT_ROWS, probedEntries } from './fenced-batch.sql.js';
import { movedRow, ROW_COLUMNS } from './job-columns.js';
import { SETTLED_CTE } from './settle-notify.sql.js';

/**
 * SQL_NACK_RETRY — hands a failed attempt back for another try at `$3`: `ready` when that is
 * already due, else `delayed`; records the error. An attempt this claim started stays counted.
 * Fenced on the claim.
 * Wakes the queue's listeners when the row is due now.
 *
 * Params: `$1` job id, `$2` claim token, `$3` float8 run-at epoch ms, `$4` error (JSON text).
 * Returns: `(id)` when it landed, no row when fenced out.
 */
export const SQL_NACK_RETRY = `update :"SCHEMA".jobs
set state = case when to_timestamp($3::float8 / 1000) <= now() then 'ready' else 'delayed' end,
  run_at = to_timestamp($3::float8 / 1000), last_error = $4::text::jsonb, lease_expires_at = null
where id = $1::text and claim_token = $2::text and state = 'running'
returning id, case when state = 'ready' then pg_notify(:'SCHEMA', left(queue, 1000)) end as woke`;

/**
 * SQL_NACK_RELEASE — hands a claimed row back without burning its attempt (a draining worker, a
 * cap that is full): `ready`/`delayed` at `$3`, or now when `$3` is null. The attempt this claim
 * started (`started_at` set: see SQL_START) is uncounted; a claim that never started changes no
 * count. Fenced on the claim.
 *
 * Params: `$1` job id, `$2` claim token, `$3` float8 run-at epoch ms or null.
 * Returns: `(id)` when it landed, no row when fenced out.
 */
export const SQL_NACK_RELEASE = `update :"SCHEMA".jobs j
set state = case when t.run_at <= now() then 'ready' else 'delayed' end,
  run_at = t.run_at, lease_expires_at = null,
  attempts = case when j.started_at is null then j.attempts else greatest(j.attempts - 1, 0) end
from (select coalesce(to_timestamp($3::float8 / 1000), now()) as run_at) t
where j.id = $1::text and j.claim_token = $2::text and j.state = 'running'
returning j.id, case when j.state = 'ready' then pg_notify(:'SCHEMA', left(j.queue, 1000)) end as woke`;

/**
 * SQL_NACK_RELEASE_MANY — SQL_NACK_RELEASE for a batch: the hand-backs that arrive while an
 * earlier batch commits (a worker handing back the stale rows of its prefetch buffer, a drain
 * handing back everything it holds) go out as one statement and one commit, each fenced on its
 * own token, each queue that got a `ready` row notified once. An (id, token) pair given twice
 * lands once.
 *
 * Params: arrays of equal length — `$1` job ids, `$2` claim tokens, `$3` float8[] run-at epoch ms
 * (null = now).
 * Returns: `(landed)` for every hand-back that landed: its 1-based position in the arrays.
 */
export const SQL_NACK_RELEASE_MANY = `with ${probedEntries(
  'unnest($1::text[], $2::text[], $3::float8[]) with ordinality as e(id, token, run_at_ms, ord)',
)}, moved as (
  update :"SCHEMA".jobs j
  set state = case when t.run_at <= now() then 'ready' else 'delayed' end,
    run_at = t.run_at, lease_expires_at = null,
    attempts = case when j.started_at is null then j.attempts else greatest(j.attempts - 1, 0) end
  from hit
  cross join lateral (select coalesce(to_timestamp(hit.run_at_ms / 1000), now()) as run_at) t
  where ${HIT_ROWS} and j.ctid = hit.row_ctid
  returning hit.ord, j.queue, j.state
), woke as (
  select count(*) from (
    select pg_notify(:'SCHEMA', left(q.queue, 1000))
    from (select distinct queue from moved where state = 'ready') q
  ) n
)
select m.ord::int as landed from moved m cross join woke`;

/**
 * SQL_NACK_SUSPEND — parks a run (`step.sleep`, `step.waitForEvent`) as `suspended` until `$3`
 * without burning its attempt (uncounted as SQL_NACK_RELEASE does). With `$4`, a publish of that
 * event makes it due at once; an event published since this attempt started (so possibly before
 * the run looked) makes it due now, which closes the gap between the run's `find` and this
 * suspend (and wakes the queue, as does a wake time already past). Fenced on the claim.
 *
 * Params: `$1` job id, `$2` claim token, `$3` float8 wake-at epoch ms, `$4` event name or null.
 * Returns: `(id)` when it landed, no row when fenced out.
 */
export const SQL_NACK_SUSPEND = `update :"SCHEMA".jobs j
set state = 'suspended',
  run_at = case
    when $4::text is not null and exists (
      select 1 from :"SCHEMA".events e
      where e.event = $4::text and e.published_at >= j.started_at and e.expires_at > now()
    ) then least(now(), to_timestamp($3::float8 / 1000))
    else to_timestamp($3::float8 / 1000)
  end,
  waiting_for = $4::text, lease_expires_at = null,
  attempts = case when j.started_at is null then j.attempts else greatest(j.attempts - 1, 0) end
where j.id = $1::text and j.claim_token = $2::text and j.state = 'running'
returning j.id, case when j.run_at <= now() then pg_notify(:'SCHEMA', left(j.queue, 1000)) end as woke`;

/**
 * SQL_NACK_DEAD — dead-letters a claimed row with its last error and why it stopped: deletes it
 * from `jobs` and writes it to `job_history` as `dead` in one statement. An attempt this claim
 * started stays counted. Fenced on the claim. Sends the settle wake (SETTLED_CTE).
 *
 * Params: `$1` job id, `$2` claim token, `$3` error (JSON text), `$4` stop reason
 * (`terminal` | `attempts-exhausted`).
 * Returns: `(id)` when it landed, no row when fenced out.
 */
export const SQL_NACK_DEAD = `with gone as (
  delete from :"SCHEMA".jobs
  where id = $1::text and claim_token = $2::text and state = 'running'
  returning *
), kept as (
  insert into :"SCHEMA".job_history (${ROW_COLUMNS})
  select ${movedRow('gone', {
    state: `'dead'`,
    last_error: '$3::text::jsonb',
    stop_reason: '$4::text',
    finished_at: 'now()',
    lease_expires_at: 'null',
  })} from gone
), ${SETTLED_CTE}
select id from gone cross join settled`;
