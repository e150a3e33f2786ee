import { CLAIMED_COLUMNS } from './job-columns.js';

/**
 * SQL_CLAIM_FAIR_LOCK — the first statement of a fair claim's transaction: locks the fair queue's
 * `fair_queues` row (`FOR UPDATE`), so the fair claims of one queue, from every process, run one
 * after another and each reads the counters the one before it wrote. Answers no row when the queue
 * has none yet (then SQL_CLAIM_FAIR_OPEN adds it and the lock is taken again).
 * Params: `$1` text queue. Returns: `clock`.
 */
export const SQL_CLAIM_FAIR_LOCK = `select q.clock from :"SCHEMA".fair_queues q where q.queue = $1::text for update`;

/**
 * SQL_CLAIM_FAIR_OPEN — adds a fair queue's `fair_queues` row (clock 0) on its first fair claim;
 * a racing first claim's row wins and this does nothing. Params: `$1` text queue.
 */
export const SQL_CLAIM_FAIR_OPEN = `insert into :"SCHEMA".fair_queues (queue) values ($1::text) on conflict (queue) do nothing`;

/**
 * SQL_CLAIM_FAIR — the claim of a queue with `fairness` (run after SQL_CLAIM_FAIR_LOCK, in its
 * transaction): takes up to `$2` due rows of the queue `$1` (none while it is paused) in the fair
 * order and hands them to one claimer, then writes the service it gave. The default claim
 * (SQL_CLAIM) is untouched: this statement runs only for a fair queue.
 *
 * The fair order (`QueueOptions.fairness`, core's `fairOrder`): a tenant (a null `tenant_id` is
 * `''`) with counter `s` (`fair_served`, absent: 0) and row cost `c` (`$7` for the tenants `$6`,
 * else `$8`) has its due rows ranked k = 1, 2, 3 … by `priority desc, run_at, seq`; its row of
 * rank k gets the start tag `greatest(s, clock) + (k − 1)·c`. Rows are taken by start tag, then a
 * tenant's first row whose counter lagged the clock, then `priority desc, run_at, seq`. A row is
 * due as in SQL_CLAIM (live and `ready`/`delayed`/`suspended` past `run_at`, or `running` with a
 * lapsed lease). Each tenant served gets `served = its last start tag + c`; the queue's clock
 * becomes the last start tag taken.
 *
 * How: one pass over the queue's due rows (`jobs_claim_idx`, `queue` leading) tags at most `$2`
 * rows per tenant with window functions; the best `2 × $2` by tag are locked
 * `FOR UPDATE SKIP LOCKED` and re-checked due on the version the lock holds, and the best `$2` of
 * those are stamped as SQL_CLAIM stamps them: `running`, a fresh claim token, lease
 * `now() + $4 ms`, the first `$5` started (never a row whose attempts reached `max_attempts`).
 *
 * Trade-off: where SQL_CLAIM reads only the `$2` rows it takes, this reads every due row of the
 * queue once per claim, and the queue's claims are serialized by the lock: see the package README
 * (Fair claiming) for measured numbers. No index or column of `jobs` serves it, so enqueues and the
 * default claim pay nothing for it.
 *
 * Params: `$1` text queue, `$2` int limit, `$3` text worker id, `$4` float8 visibility timeout ms,
 * `$5` int how many to start, `$6` text[] weighted tenants, `$7` bigint[] their row costs,
 * `$8` bigint the row cost of every other tenant.
 * Returns: the claimed rows (`CLAIMED_COLUMNS`, `started`, `lapsed` as in SQL_CLAIM) and `rank`,
 * their 1-based place in the fair order; unordered (the driver sorts them by `rank`).
 */
export const SQL_CLAIM_FAIR = `with clock as (
  select coalesce((select q.clock from :"SCHEMA".fair_queues q where q.queue = $1::text), 0) as clock
), due as (
  select j.id, coalesce(j.tenant_id, '') as tenant, j.priority, j.run_at, j.seq,
    row_number() over (partition by coalesce(j.tenant_id, '') order by j.priority desc, j.run_at, j.seq) as k
  from :"SCHEMA".jobs j
  where j.queue = $1::text
    and j.live
    and (case when j.state = 'running' then j.lease_expires_at else j.run_at end) <= now()
    and not exists (select 1 from :"SCHEMA".paused_queues p where p.queue = $1::text)
), tagged as (
  select d.id, d.tenant, d.priority, d.run_at, d.seq, w.cost,
    greatest(coalesce(s.served, 0), c.clock) + (d.k - 1) * w.cost as tag,
    (d.k = 1 and coalesce(s.served, 0) < c.clock) as lagged
  from due d
  cross join clock c
  left join :"SCHEMA".fair_served s on s.queue = $1::text and s.tenant = d.tenant
  cross join lateral (
    select coalesce((select x.cost from unnest($6::text[], $7::bigint[]) as x(tenant, cost)
      where x.tenant = d.tenant), $8::bigint) as cost
  ) w
  where d.k <= $2::int
), chosen as (
  select t.id, t.tenant, t.cost, t.tag, t.lagged, t.priority, t.run_at, t.seq
  from tagged t
  order by t.tag, t.lagged desc, t.priority desc, t.run_at, t.seq
  limit (select 2 * $2::int)
), locked as (
  select j.ctid, c.tenant, c.cost, c.tag, c.lagged, c.priority, c.run_at, c.seq,
    j.state = 'running' as lapsed, j.attempts < j.max_attempts as startable
  from chosen c
  join :"SCHEMA".jobs j on j.id = c.id
  where j.live
    and (case when j.state = 'running' then j.lease_expires_at else j.run_at end) <= now()
  for update of j skip locked
), ranked as (
  select l.ctid, l.tenant, l.cost, l.tag, l.lapsed, l.startable,
    row_number() over (order by l.tag, l.lagged desc, l.priority desc, l.run_at, l.seq) as rank
  from locked l
  order by l.tag, l.lagged desc, l.priority desc, l.run_at, l.seq
  limit (select $2::int)
), picked as (
  select r.ctid, r.tenant, r.cost, r.tag, r.lapsed, r.rank, r.rank <= $5::int and r.startable as started
  from ranked r
), claimed as (
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
  returning ${CLAIMED_COLUMNS}, picked.started, picked.lapsed, picked.rank, picked.tenant as fair_tenant,
    picked.tag as fair_tag, picked.cost as fair_cost
), served as (
  insert into :"SCHEMA".fair_served (queue, tenant, served)
  select $1::text, c.fair_tenant, max(c.fair_tag + c.fair_cost) from claimed c group by c.fair_tenant
  on conflict (queue, tenant) do update set served = excluded.served
), ticked as (
  update :"SCHEMA".fair_queues q set clock = (select max(c.fair_tag) from claimed c)
  where q.queue = $1::text and exists (select 1 from claimed)
)
select * from claimed`;
