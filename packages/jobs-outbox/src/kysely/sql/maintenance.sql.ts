import type { OutboxTable } from '../outbox-table.js';

/** Counts committed rows not yet published. Returns `{ n }`. No params. */
export function backlogSql(t: OutboxTable): string {
  return `select count(*)::int as n from ${t.qualified} where published_at is null`;
}

/**
 * Deletes published rows older than the cutoff (the audit trail is kept until pruned).
 * Returns `{ n }`, the rows deleted. Params: $1 age in ms.
 */
export function pruneSql(t: OutboxTable): string {
  return `with pruned as (
  delete from ${t.qualified}
  where published_at is not null and published_at < now() - $1::bigint * interval '1 millisecond'
  returning 1
)
select count(*)::int as n from pruned`;
}
