import type { OutboxTable } from '../outbox-table.js';

/**
 * Stages outbox rows on the caller's transaction, in array order, and wakes listening relays
 * with a `pg_notify` that Postgres delivers only if that transaction commits.
 * Returns one row (the notify's void). Params: $1 text[] job ids, $2 text[] job names,
 * $3 text[] requests as JSON text, $4 the NOTIFY channel.
 *
 * Trade-off: a transaction that notified takes a database-wide lock on the notification queue
 * for the moment of its commit, so such commits serialize there. `notify: false` on the store
 * drops the `pg_notify` ({@link stageQuietSql}) and the relay finds rows by polling.
 */
export function stageSql(t: OutboxTable): string {
  return `with staged as (
  insert into ${t.qualified} (job_id, job_name, request)
  select r.job_id, r.job_name, r.request::json
  from unnest($1::text[], $2::text[], $3::text[]) with ordinality as r(job_id, job_name, request, n)
  order by r.n
  returning id
)
select pg_notify($4, '') from (select count(*) from staged) as written`;
}

/**
 * Stages outbox rows on the caller's transaction, in array order, without waking anyone.
 * Returns nothing. Params: $1 text[] job ids, $2 text[] job names, $3 text[] requests as JSON text.
 */
export function stageQuietSql(t: OutboxTable): string {
  return `insert into ${t.qualified} (job_id, job_name, request)
select r.job_id, r.job_name, r.request::json
from unnest($1::text[], $2::text[], $3::text[]) with ordinality as r(job_id, job_name, request, n)
order by r.n`;
}
