import { CLAIMED_COLUMNS } from './job-columns.js';

/**
 * SQL_CLAIM — lands the caller's pending acks, then takes up to `$2` due rows of the unpaused
 * queues `$1` and hands them to one claimer: one statement and one commit for both.
 *
 * Acks (`$5`–`$7`, possibly empty): each marks its row `done` with its result, fenced on its own
 * claim token exactly as SQL_ACK_MANY does, and answers its 1-based position in the arrays when
 * it landed. They land first: `acked` is the first branch of the closing `union all`, which
 * Postgres runs to completion before the second. A row acked here still looks `running` to the
 * claim (same snapshot), but if its lease lapsed and the claim tries to lock it, Postgres skips it
 * as already updated by this statement, so an acked row is never claimed back. And a statement
 * waits on other sessions' row locks only while acking, before it holds any claim lock of its own.
 *
 * Claim: a row is due when it is live (`jobs.live`) and `ready`/`delayed`/`suspended` with
 * `run_at <= now()`, or `running` with a lapsed lease (`lease_expires_at <= now()`: the holder
 * died; that attempt stays counted). Per queue, an index range scan of `jobs_claim_idx` in
 * `priority desc, run_at, seq` order locks the first `$2` rows with `FOR UPDATE SKIP LOCKED`
 * (rows another claimer holds are skipped, never waited on); the best `$2` across queues are then
 * stamped `running` with a fresh claim token, the lease deadline `now() + $4 ms`, and one more
 * attempt. With one queue nothing extra is locked; with several, the surplus per-queue locks end
 * with the statement. The update finds the locked rows by `ctid` (the version the lock holds, so
 * no one else changed it since): no second descent of the primary key per row.
 *
 * Every parameter that could sway the plan is read through a scalar sub-select (an init plan),
 * so the planner never sees its value. That makes the plan one shape whatever the call: the
 * prepared statement settles on its generic plan after five executions instead of being planned
 * afresh on every call (a custom plan looks cheaper whenever it knows the arrays are short), and
 * the plan never depends on table statistics for the claim: with a known limit and a table it
 * has no statistics for (a fresh or truncated `jobs` with a deep backlog), Postgres estimates a
 * handful of due rows and reads them all through a bitmap scan and a sort, once per claim; with
 * the limit unknown the ordered index scan, which stops after `$2` rows, is always the cheapest.
 *
 * The claim is a HOT update (migration 2): `live` stays true and no index covers a column it sets,
 * so the new row versions land beside the old ones and no index entry is written.
 *
 * Trade-offs: a per-queue scan keeps a worker of a quiet queue fast however large other queues'
 * backlogs are (one global `(priority, run_at)` index filtered on queue would walk them); it costs
 * one index descent per queue. Batches pay: on a loaded 2-core machine, 4 loops of claim(50) plus
 * batched acks moved ~5,000 jobs/s where 8 loops of claim(1) + ack moved ~550 (README, Throughput).
 *
 * Params: `$1` text[] queues, `$2` int limit, `$3` text worker id, `$4` float8 visibility timeout
 * ms; `$5` text[] ack job ids, `$6` text[] their claim tokens, `$7` text[] their results (JSON
 * text or null), all three of equal length (empty for no acks).
 * Returns: one row `(acked)` per ack that landed, its 1-based position in `$5`, with the other
 * columns null; then one row per claimed row (`acked` null, `CLAIMED_COLUMNS`: what a claimer
 * needs, times as epoch ms), unordered: the driver sorts them by priority desc, run_at, seq.
 */
export const SQL_CLAIM = `with acked as (
  update :"SCHEMA".jobs j
  set state = 'done', result = a.result::jsonb, finished_at = now(), lease_expires_at = null
  from unnest((select $5::text[]), (select $6::text[]), (select $7::text[])) with ordinality as a(id, token, result, ord)
  where j.id = a.id and j.claim_token = a.token and j.state = 'running'
  returning a.ord
), queues as (
  select distinct u.queue
  from unnest((select $1::text[])) as u(queue)
  where not exists (select 1 from :"SCHEMA".paused_queues p where p.queue = u.queue)
), picked as (
  select c.ctid
  from queues q
  cross join lateral (
    select j.ctid, j.priority, j.run_at, j.seq
    from :"SCHEMA".jobs j
    where j.queue = q.queue
      and j.live
      and (case when j.state = 'running' then j.lease_expires_at else j.run_at end) <= now()
    order by j.priority desc, j.run_at, j.seq
    limit (select $2::int)
    for update skip locked
  ) c
  order by c.priority desc, c.run_at, c.seq
  limit (select $2::int)
), claimed as (
  update :"SCHEMA".jobs j
  set state = 'running',
    attempts = j.attempts + 1,
    claim_token = gen_random_uuid()::text,
    worker_id = $3::text,
    started_at = now(),
    lease_expires_at = now() + $4::float8 * interval '1 millisecond',
    waiting_for = null
  from picked
  where j.ctid = picked.ctid
  returning ${CLAIMED_COLUMNS}
)
select a.ord::int as acked, null as id, null as seq, null as run_id, null as name, null as queue,
  null as payload, null as tenant_id, null as idempotency_key, null as priority, null as attempts,
  null as max_attempts, null as claim_token, null as enqueued_by, null as traceparent,
  null as enqueued_at, null as run_at, null as lease_expires_at
from acked a
union all
select null, c.* from claimed c`;
