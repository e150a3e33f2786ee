import type { Migration } from './migration.js';

/**
 * `rate_limits`: one row per rate-limit key, holding its sliding-window log — the grants still
 * counting, as epoch-ms in ascending order (at most the largest `limit` a take passed, ≤ 10,000,
 * so ≤ 80 KB) — and the `retryAt` of its last refusal (the tail of the line of deferrals).
 * `lapses_at` is when the row stops mattering (its newest grant stopped counting and its last
 * retryAt passed); takes sweep a few lapsed rows through `rate_limits_lapses_idx`, so keys derived
 * from inputs (one per partner account) do not accumulate. `granted` is the answer of the row's
 * last take: the take statement sets and returns it in one upsert.
 */
export const MIGRATION_0005_RATE_LIMITS: Migration = {
  version: 5,
  name: 'rate-limits',
  statements: [
    `create table :"SCHEMA".rate_limits (
  key text primary key,
  grants bigint[] not null,
  last_retry_at bigint not null default 0,
  granted boolean not null,
  lapses_at timestamptz not null
)`,
    `create index rate_limits_lapses_idx on :"SCHEMA".rate_limits (lapses_at)`,
  ],
};
