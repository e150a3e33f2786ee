/**
 * SQL_ENQUEUE — writes one job row unless a live row holds its `(name, tenant, key)` (or its id
 * is taken), and wakes listeners of its queue when it is due now.
 *
 * `ON CONFLICT DO NOTHING` has `jobs_live_key_idx` (the partial unique index over live states)
 * as its arbiter, so two concurrent enqueues of one key write one row. The `pg_notify` rides in
 * the statement: delivered when the transaction commits, never on rollback. The second branch
 * reads back the live row that won, when it was committed before this statement began; a winner
 * committed while it ran is invisible to this snapshot, and the driver reads it back with
 * SQL_ENQUEUE_READBACK.
 *
 * Params: `$1` id, `$2` run id, `$3` name, `$4` queue, `$5` payload (JSON text), `$6` tenant id
 * or null, `$7` idempotency key, `$8` int priority, `$9` int max attempts, `$10` float8 run-at
 * epoch ms or null (now), `$11` enqueued by, `$12` traceparent.
 * Returns: one row `(id, run_id, deduped)`, or none (read back).
 */
export const SQL_ENQUEUE = `with ins as (
  insert into :"SCHEMA".jobs (id, run_id, name, queue, state, payload, tenant_id, idempotency_key,
    priority, max_attempts, run_at, enqueued_by, traceparent)
  select $1::text, $2::text, $3::text, $4::text, case when t.run_at > now() then 'delayed' else 'ready' end,
    $5::text::jsonb, $6::text, $7::text, $8::int, $9::int, t.run_at, $11::text, $12::text
  from (select coalesce(to_timestamp($10::float8 / 1000), now()) as run_at) t
  on conflict do nothing
  returning id, run_id, case when state = 'ready' then pg_notify(:'SCHEMA', left(queue, 1000)) end as woke
)
select ins.id, ins.run_id, false as deduped from ins
union all
select j.id, j.run_id, true as deduped
from :"SCHEMA".jobs j
where not exists (select 1 from ins)
  and j.name = $3::text
  and coalesce(j.tenant_id, '') = coalesce($6::text, '')
  and j.idempotency_key = $7::text
  and j.live`;

/**
 * SQL_ENQUEUE_MANY — SQL_ENQUEUE for up to 1,000 rows in one statement: the rows travel as
 * parallel arrays through `unnest(…) with ordinality`, so the plan is one insert whatever the
 * batch size. The driver removes in-batch duplicates first (a key repeated in the batch dedupes
 * to its first occurrence). NOTIFY collapses equal payloads, so a batch wakes each queue once.
 *
 * Params: arrays of equal length — `$1` ids, `$2` run ids, `$3` names, `$4` queues, `$5` payloads
 * (JSON text), `$6` tenant ids, `$7` keys, `$8` int[] priorities, `$9` int[] max attempts,
 * `$10` float8[] run-at epoch ms (null = now), `$11` enqueued by, `$12` traceparents.
 * Returns: one row per input in input order, `(ord, id, run_id, deduped)`; `id` is null when the
 * winning live row is not visible to this snapshot (read back with SQL_ENQUEUE_READBACK).
 */
export const SQL_ENQUEUE_MANY = `with input as (
  select *
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::int[], $9::int[], $10::float8[], $11::text[], $12::text[]) with ordinality
    as r(id, run_id, name, queue, payload, tenant_id, idempotency_key, priority, max_attempts,
      run_at_ms, enqueued_by, traceparent, ord)
), ins as (
  insert into :"SCHEMA".jobs (id, run_id, name, queue, state, payload, tenant_id, idempotency_key,
    priority, max_attempts, run_at, enqueued_by, traceparent)
  select r.id, r.run_id, r.name, r.queue, case when t.run_at > now() then 'delayed' else 'ready' end,
    r.payload::jsonb, r.tenant_id, r.idempotency_key, r.priority, r.max_attempts, t.run_at,
    r.enqueued_by, r.traceparent
  from input r
  cross join lateral (select coalesce(to_timestamp(r.run_at_ms / 1000), now()) as run_at) t
  order by r.ord
  on conflict do nothing
  returning id, run_id, case when state = 'ready' then pg_notify(:'SCHEMA', left(queue, 1000)) end as woke
)
select r.ord, coalesce(ins.id, live.id) as id, coalesce(ins.run_id, live.run_id) as run_id,
  ins.id is null as deduped
from input r
left join ins on ins.id = r.id
left join lateral (
  select j.id, j.run_id
  from :"SCHEMA".jobs j
  where ins.id is null
    and j.name = r.name
    and coalesce(j.tenant_id, '') = coalesce(r.tenant_id, '')
    and j.idempotency_key = r.idempotency_key
    and j.live
  limit 1
) live on true
order by r.ord`;

/**
 * SQL_ENQUEUE_READBACK — after an enqueue wrote nothing for some rows, finds what holds them in a
 * fresh snapshot: the live row with the same `(name, tenant, key)`, else the row with the same id.
 *
 * Params: arrays `$1` names, `$2` tenant ids, `$3` keys, `$4` ids.
 * Returns: one row per input in input order, `(ord, id, run_id)`; `id` null when nothing holds it
 * any more (the live row finished meanwhile: enqueue again).
 */
export const SQL_ENQUEUE_READBACK = `select k.ord, coalesce(live.id, byid.id) as id, coalesce(live.run_id, byid.run_id) as run_id
from unnest($1::text[], $2::text[], $3::text[], $4::text[]) with ordinality
  as k(name, tenant_id, idempotency_key, id, ord)
left join lateral (
  select j.id, j.run_id
  from :"SCHEMA".jobs j
  where j.name = k.name
    and coalesce(j.tenant_id, '') = coalesce(k.tenant_id, '')
    and j.idempotency_key = k.idempotency_key
    and j.live
  limit 1
) live on true
left join :"SCHEMA".jobs byid on byid.id = k.id
order by k.ord`;
