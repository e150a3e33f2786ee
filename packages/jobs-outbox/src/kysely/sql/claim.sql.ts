import type { OutboxTable } from '../outbox-table.js';

/**
 * Claims the oldest unpublished rows and stamps the lease in the same statement that locks them.
 * Takes nothing while any unpublished row is held under a live lease (head of line: one batch
 * in flight, so a later row never overtakes an earlier one); otherwise up to $2 unclaimed or
 * lapsed rows in (staged_at, id) order. FOR UPDATE SKIP LOCKED leaves rows a settle is writing.
 * Returns the claimed rows, oldest first, times as epoch ms.
 * Params: $1 claimant token, $2 limit, $3 lease in ms.
 */
export function claimSql(t: OutboxTable): string {
  return `with claimed as (
  update ${t.qualified}
  set claimed_by = $1, claimed_at = now(), claimed_until = now() + $3::int * interval '1 millisecond',
      attempts = attempts + 1
  where id in (
    select id from ${t.qualified}
    where published_at is null
      and (claimed_until is null or claimed_until <= now())
      and not exists (
        select 1 from ${t.qualified} as held
        where held.published_at is null and held.claimed_until > now()
      )
    order by staged_at, id
    for update skip locked
    limit $2
  )
  returning id, request, staged_at, claimed_by, claimed_until, attempts, last_error
)
select id::text as id, request::text as request,
       (extract(epoch from staged_at) * 1000)::float8 as staged_at_ms,
       claimed_by, (extract(epoch from claimed_until) * 1000)::float8 as claimed_until_ms,
       attempts, last_error
from claimed
order by claimed.staged_at, claimed.id`;
}
