import { CLAIMED_COLUMNS } from './job-columns.js';

/**
 * SQL_CLAIM — takes up to `$2` due rows of the unpaused queues `$1` in one statement and hands
 * them to one claimer.
 *
 * A row is due when it is live (`jobs.live`) and `ready`/`delayed`/`suspended` with `run_at <= now()`,
 * or `running` with a lapsed lease (`lease_expires_at <= now()`: the holder died; an attempt it
 * started stays counted). Per
 * queue, an index range scan of `jobs_claim_idx` in `priority desc, run_at, seq` order locks the
 * first `$2` rows with `FOR UPDATE SKIP LOCKED` (rows another claimer holds are skipped, never
 * waited on); the best `$2` across queues are then stamped `running` with a fresh claim token,
 * the lease deadline `now() + $4 ms` and `started_at` null: a claim counts no attempt (SQL_START
 * does, and sets `started_at`, so a row lost in a prefetch buffer comes back uncounted). With one
 * queue nothing extra is
 * locked; with several, the surplus per-queue locks end with the statement. The update finds the
 * locked rows by `ctid`: the version the lock holds, which no one else can change meanwhile, so no
 * second descent of the primary key per row. (A row changed by another session between this
 * statement's snapshot and its lock is left for the next claim.)
 *
 * Every parameter that could sway the plan is read through a scalar sub-select (an init plan),
 * so the planner never sees its value and the plan has one shape whatever the call. The prepared
 * statement settles on its generic plan after five executions instead of being planned afresh on
 * every call (a custom plan, which knows the queue list is short, always looked cheaper); and the
 * plan never depends on statistics: with a known limit and a table it has none for (a fresh or
 * truncated `jobs` with a deep backlog), Postgres estimated a handful of due rows and read them
 * all through a bitmap scan and a sort, once per claim. With the limit unknown the ordered index
 * scan, which stops after `$2` rows, is always the cheapest.
 *
 * The claim is a HOT update (migrations 2 and 3): `live` stays true and no index covers a column
 * it sets, so the new row versions land beside the old ones and no index entry is written.
 *
 * Trade-offs: a per-queue scan keeps a worker of a quiet queue fast however large other queues'
 * backlogs are (one global `(priority, run_at)` index filtered on queue would walk them); it costs
 * one index descent per queue. Batches pay: on a loaded 2-core machine, 4 loops of claim(50) plus
 * batched acks moved ~5,000 jobs/s where 8 loops of claim(1) + ack moved ~550 (README, Throughput).
 *
 * The first `$5` rows in claim order are also started, as SQL_START would (`ClaimOptions.start`:
 * rows the claimer runs at once): one attempt counted and `started_at` stamped in this statement — except a row whose
 * attempts reached `max_attempts`, which is never started (attempts never pass the cap).
 *
 * Params: `$1` text[] queues, `$2` int limit, `$3` text worker id, `$4` float8 visibility timeout ms,
 * `$5` int how many to start.
 * Returns: the claimed rows (`CLAIMED_COLUMNS`: what a claimer needs, times as epoch ms, plus
 * `started`, and `lapsed`: true for a row taken from a `running` row whose lease lapsed),
 * unordered; the driver sorts them by priority desc, run_at, seq.
 */
export const SQL_CLAIM = `with queues as (
  select distinct u.queue
  from unnest((select $1::text[])) as u(queue)
  where not exists (select 1 from :"SCHEMA".paused_queues p where p.queue = u.queue)
), picked as (
  select c.ctid,
    row_number() over (order by c.priority desc, c.run_at, c.seq) <= (select $5::int)
      and c.attempts < c.max_attempts as started,
    c.state = 'running' as lapsed
  from queues q
  cross join lateral (
    select j.ctid, j.priority, j.run_at, j.seq, j.attempts, j.max_attempts, j.state
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
)
update :"SCHEMA".jobs j
set state = 'running',
  claim_token = gen_random_uuid()::text,
  worker_id = $3::text,
  attempts = j.attempts + case when picked.started then 1 else 0 end,
  started_at = case when picked.started then now() end,
  lease_expires_at = now() + $4::float8 * interval '1 millisecond',
  waiting_for = null
from picked
where j.ctid = picked.ctid
returning ${CLAIMED_COLUMNS}, picked.started, picked.lapsed`;
