import type { OutboxTable } from '../outbox-table.js';

/**
 * Hands rows back unclaimed at once (a failed publish), keeping the error. Fenced on the
 * claimant: rows another relay has since reclaimed, or already published, are left alone.
 * Returns one row per released row. Params: $1 claimant token, $2 text[] row ids, $3 error or null.
 */
export function releaseSql(t: OutboxTable): string {
  return `update ${t.qualified}
set claimed_by = null, claimed_at = null, claimed_until = null, last_error = coalesce($3, last_error)
where id = any($2::bigint[]) and claimed_by = $1 and published_at is null
returning id`;
}

/**
 * Retires published rows, keeping them (with `claimed_by`) as the audit trail. Fenced on the
 * claimant: a relay whose lease lapsed and was reclaimed marks nothing.
 * Returns one row per marked row. Params: $1 claimant token, $2 text[] row ids.
 */
export function markPublishedSql(t: OutboxTable): string {
  return `update ${t.qualified}
set published_at = now()
where id = any($2::bigint[]) and claimed_by = $1 and published_at is null
returning id`;
}
