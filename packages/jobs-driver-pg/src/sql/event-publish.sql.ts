/**
 * SQL_EVENT_PUBLISH — stores an event for `$3` ms and, in the same statement, makes every run
 * suspended on that event name due now (and wakes their queues), so a waiter resumes without
 * waiting for its poll.
 *
 * Params: `$1` event name, `$2` payload (JSON text), `$3` float8 time to live ms.
 * Returns: the stored event `(id, event, payload, published_at, expires_at)`.
 */
export const SQL_EVENT_PUBLISH = `with ev as (
  insert into :"SCHEMA".events (event, payload, expires_at)
  values ($1::text, $2::text::jsonb, now() + $3::float8 * interval '1 millisecond')
  returning id, event, payload, published_at, expires_at
), woken as (
  update :"SCHEMA".jobs
  set run_at = now()
  where state = 'suspended' and waiting_for = $1::text
  returning queue
)
select ev.id::text as id, ev.event, ev.payload, ev.published_at, ev.expires_at,
  (select count(*) from (
    select pg_notify(:'SCHEMA', left(w.queue, 1000)) from (select distinct queue from woken) w
  ) n)::int as woken_queues
from ev`;

/**
 * SQL_EVENT_FIND — the earliest unexpired event named `$1` published at or after `$2`, whose
 * payload contains `$3` (jsonb `@>`; null matches any).
 *
 * Params: `$1` event name, `$2` float8 since epoch ms, `$3` match (JSON text) or null.
 * Returns: at most one event row.
 */
export const SQL_EVENT_FIND = `select e.id::text as id, e.event, e.payload, e.published_at, e.expires_at
from :"SCHEMA".events e
where e.event = $1::text
  and e.published_at >= to_timestamp($2::float8 / 1000)
  and e.expires_at > now()
  and ($3::text is null or e.payload @> $3::text::jsonb)
order by e.published_at, e.id
limit 1`;
