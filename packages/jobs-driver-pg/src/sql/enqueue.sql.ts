/**
 * SQL_ENQUEUE — writes one job row unless a live row holds its `(name, tenant, key)` (or its id
 * is taken), and wakes listeners of its queue when it is due now.
 *
 * `ON CONFLICT DO NOTHING` has `jobs_live_key_idx` (the partial unique index over live states)
 * and the primary key as arbiters, so two concurrent enqueues of one key write one row; an id
 * that finished (now in `job_history`, migration 4) is found by one primary-key probe there, so
 * a republished request writes nothing. (A republish racing the ack that moves its very row can
 * pass both checks inside that ack's commit and write the id again: the window is one commit.) The
 * `pg_notify` rides in the statement: delivered when the transaction commits, never on rollback.
 * It is the least work a write can be: one insert, nothing read back. When it wrote nothing the
 * driver finds the holder with SQL_ENQUEUE_READBACK (a dedupe writes no WAL, so its commit does
 * not flush). Folding that lookup in (a CTE plus a `UNION ALL` branch over the live row) cost
 * every write more to save a round trip only on a dedupe: server execution 129 → 90 µs and client
 * CPU 62 → 53 µs per call without it (interleaved A/B, 29 Nov; apps/bench README, Enqueue path).
 *
 * Params: `$1` id, `$2` run id, `$3` name, `$4` queue, `$5` payload (JSON text), `$6` tenant id
 * or null, `$7` idempotency key, `$8` int priority, `$9` int max attempts, `$10` float8 run-at
 * epoch ms or null (now), `$11` enqueued by, `$12` traceparent.
 * Returns: one row when it wrote the job (its id and run id are the request's), none when a live
 * row or the id held it (read back).
 */
export const SQL_ENQUEUE = `insert into :"SCHEMA".jobs (id, run_id, name, queue, state, payload, tenant_id, idempotency_key,
  priority, max_attempts, run_at, enqueued_by, traceparent)
select $1::text, $2::text, $3::text, $4::text, case when t.run_at > now() then 'delayed' else 'ready' end,
  $5::text::jsonb, $6::text, $7::text, $8::int, $9::int, t.run_at, $11::text, $12::text
from (select coalesce(to_timestamp($10::float8 / 1000), now()) as run_at) t
where not exists (select 1 from :"SCHEMA".job_history h where h.id = $1::text)
on conflict do nothing
returning case when state = 'ready' then pg_notify(:'SCHEMA', left(queue, 1000)) end as woke`;

/**
 * SQL_ENQUEUE_MANY — SQL_ENQUEUE for up to 1,000 rows in one statement: the rows travel as
 * parallel arrays through `unnest(…) with ordinality`, so the plan is one insert whatever the
 * batch size, and they are inserted in input order (`seq` follows it: FIFO within a batch). The
 * driver removes in-batch duplicates first (a key repeated in the batch dedupes to its first
 * occurrence).
 *
 * It answers one row, not one per input: the ids it wrote are the request's own, so only a
 * batch that wrote fewer rows than it was given lists them (`ids`), and the driver reads back the
 * holders of the rest with SQL_ENQUEUE_READBACK. Each queue that got a `ready` row is notified
 * once. Ids already finished (in `job_history`) are skipped like live ones. Against joining every input back to the insert and to a lateral live-row lookup, with a
 * `pg_notify` per row (the statement before 29 Nov), this halves the client's CPU per 1,000 rows
 * (13.8 → 7.0 ms: no 1,000 result rows to parse) and trims server execution (44 → 42 ms median):
 * what remains is the insert itself, six WAL records per row (heap, four indexes, the
 * speculative-insert confirmation).
 *
 * Params: arrays of equal length — `$1` ids, `$2` run ids, `$3` names, `$4` queues, `$5` payloads
 * (JSON text), `$6` tenant ids, `$7` keys, `$8` int[] priorities, `$9` int[] max attempts,
 * `$10` float8[] run-at epoch ms (null = now), `$11` enqueued by, `$12` traceparents.
 * Returns: one row `(written, ids)`: how many rows it wrote, and when that is fewer than the
 * inputs, the ids it wrote (null when it wrote none); `woke` is how many queues it notified.
 */
export const SQL_ENQUEUE_MANY = `with ins as (
  insert into :"SCHEMA".jobs (id, run_id, name, queue, state, payload, tenant_id, idempotency_key,
    priority, max_attempts, run_at, enqueued_by, traceparent)
  select r.id, r.run_id, r.name, r.queue, case when t.run_at > now() then 'delayed' else 'ready' end,
    r.payload::jsonb, r.tenant_id, r.idempotency_key, r.priority, r.max_attempts, t.run_at,
    r.enqueued_by, r.traceparent
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::int[], $9::int[], $10::float8[], $11::text[], $12::text[]) with ordinality
    as r(id, run_id, name, queue, payload, tenant_id, idempotency_key, priority, max_attempts,
      run_at_ms, enqueued_by, traceparent, ord)
  cross join lateral (select coalesce(to_timestamp(r.run_at_ms / 1000), now()) as run_at) t
  where not exists (select 1 from :"SCHEMA".job_history h where h.id = r.id)
  order by r.ord
  on conflict do nothing
  returning id, queue, state
)
select count(*)::int as written,
  case when count(*) < cardinality($1::text[]) then array_agg(id) end as ids,
  (select count(*) from (
    select pg_notify(:'SCHEMA', left(q.queue, 1000))
    from (select distinct queue from ins where state = 'ready') q
  ) n)::int as woke
from ins`;

/**
 * SQL_ENQUEUE_READBACK — after an enqueue wrote nothing for some rows, finds what holds them in a
 * fresh snapshot: the live row with the same `(name, tenant, key)`, else the row with the same id
 * in `jobs` or `job_history`.
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
left join lateral (
  select j.id, j.run_id from :"SCHEMA".jobs j where j.id = k.id
  union all
  select h.id, h.run_id from :"SCHEMA".job_history h where h.id = k.id
  limit 1
) byid on true
order by k.ord`;
