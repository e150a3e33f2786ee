import { CLAIMED_COLUMNS } from './job-columns.js';

/**
 * SQL_CLAIM_FAIR — the claim of a queue with `fairness: 'tenant'`: takes up to `$2` due rows of
 * the queue `$1` (none while it is paused) in the fair order and hands them to one claimer. The
 * default claim (SQL_CLAIM) is untouched: this statement runs only for a fair queue.
 *
 * The fair order (`QueueOptions.fairness`): a tenant (a null `tenant_id` is one more tenant)
 * holding `h` rows of the queue — `running` under an unexpired lease — has its due rows ranked
 * 1, 2, 3 … by `priority desc, run_at, seq`, and its row of rank `k` gets the turn `h + k`. Rows
 * are taken by turn, then `priority desc, run_at, seq`. A row is due as in SQL_CLAIM (live and
 * `ready`/`delayed`/`suspended` past `run_at`, or `running` with a lapsed lease).
 *
 * How: one pass over the queue's live rows (`jobs_claim_idx`, `queue` leading) counts each
 * tenant's held rows and ranks its due rows with window functions; the best `2 × $2` by turn are
 * then locked `FOR UPDATE SKIP LOCKED`, re-checked due on the version the lock holds (a racing
 * claimer that took one first has made it `running` under a fresh lease), and the best `$2` of
 * those are stamped as SQL_CLAIM stamps them: `running`, a fresh claim token, lease
 * `now() + $4 ms`, the first `$5` by turn started (but never a row whose attempts reached
 * `max_attempts`: attempts never pass the cap). Locking twice the limit lets a claimer racing
 * another on the same turns still fill its batch from the next ones.
 *
 * Trade-off: where SQL_CLAIM reads only the `$2` rows it takes, this reads every live row of the
 * queue once per claim (the turns depend on every tenant's held and due rows), so a claim costs
 * O(live rows of the queue): see the package README (Fair claiming) for measured numbers. No
 * index or column serves it alone, so enqueues and the default claim pay nothing for it.
 *
 * Params: `$1` text queue, `$2` int limit, `$3` text worker id, `$4` float8 visibility timeout ms,
 * `$5` int how many to start.
 * Returns: the claimed rows (`CLAIMED_COLUMNS`, `started`, `lapsed` as in SQL_CLAIM) and `rank`,
 * their 1-based place in the fair order; unordered (the driver sorts them by `rank`).
 */
export const SQL_CLAIM_FAIR = `with queue_rows as (
  select j.id, coalesce(j.tenant_id, '') as tenant, j.priority, j.run_at, j.seq,
    (case when j.state = 'running' then j.lease_expires_at else j.run_at end) <= now() as due,
    (j.state = 'running' and j.lease_expires_at > now()) as held
  from :"SCHEMA".jobs j
  where j.queue = $1::text
    and j.live
    and not exists (select 1 from :"SCHEMA".paused_queues p where p.queue = $1::text)
), turns as (
  select r.id, r.due, r.priority, r.run_at, r.seq,
    count(*) filter (where r.held) over (partition by r.tenant)
      + row_number() over (partition by r.tenant, r.due order by r.priority desc, r.run_at, r.seq) as turn
  from queue_rows r
), chosen as (
  select t.id, t.turn, t.priority, t.run_at, t.seq
  from turns t
  where t.due
  order by t.turn, t.priority desc, t.run_at, t.seq
  limit (select 2 * $2::int)
), locked as (
  select j.ctid, c.turn, c.priority, c.run_at, c.seq,
    j.state = 'running' as lapsed, j.attempts < j.max_attempts as startable
  from chosen c
  join :"SCHEMA".jobs j on j.id = c.id
  where j.live
    and (case when j.state = 'running' then j.lease_expires_at else j.run_at end) <= now()
  for update of j skip locked
), ranked as (
  select l.ctid, l.lapsed, l.startable,
    row_number() over (order by l.turn, l.priority desc, l.run_at, l.seq) as rank
  from locked l
  order by l.turn, l.priority desc, l.run_at, l.seq
  limit (select $2::int)
), picked as (
  select r.ctid, r.lapsed, r.rank, r.rank <= $5::int and r.startable as started
  from ranked r
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
returning ${CLAIMED_COLUMNS}, picked.started, picked.lapsed, picked.rank`;
