import type { OutboxTable } from '../outbox-table.js';

/**
 * The outbox table's DDL, numbered and append-only: a released entry is never edited (a test
 * hashes them); a change ships as a new entry. Every statement is idempotent, so applying the
 * whole list again is a no-op.
 *
 * Columns: `id` (identity, the order tiebreak), `job_id` and `job_name` (for operators), `request`
 * (the EnqueueRequest as JSON text, kept verbatim), `staged_at` (the staging transaction's start),
 * the claim (`claimed_by` token, `claimed_at`, `claimed_until` lease, `attempts`), `last_error`
 * (of the last failed publish) and `published_at` (null until published; kept as the audit trail).
 */
export function outboxMigrations(t: OutboxTable): readonly (readonly string[])[] {
  return [
    // 1: the table and its three partial indexes.
    [
      ...(t.quotedSchema === undefined ? [] : [`create schema if not exists ${t.quotedSchema}`]),
      `create table if not exists ${t.qualified} (
  id bigint generated always as identity primary key,
  job_id text not null,
  job_name text not null,
  request json not null,
  staged_at timestamptz not null default now(),
  claimed_by text,
  claimed_at timestamptz,
  claimed_until timestamptz,
  attempts integer not null default 0,
  last_error text,
  published_at timestamptz
)`,
      // The relay's claim order over what is left to publish.
      `create index if not exists "${t.table}_unpublished" on ${t.qualified} (staged_at, id) where published_at is null`,
      // The head-of-line check: which unpublished rows are held under a claim.
      `create index if not exists "${t.table}_held" on ${t.qualified} (claimed_until) where published_at is null and claimed_until is not null`,
      // prunePublished.
      `create index if not exists "${t.table}_published" on ${t.qualified} (published_at) where published_at is not null`,
    ],
  ];
}
