import type { Migration } from './migration.js';

/**
 * Lets a claim (`ready` → `running`) be a HOT update: no index of `jobs` mentions `state` any
 * more. The live-only indexes filter on `live`, a stored column generated from `state` that stays
 * `true` across every live → live move, so Postgres writes the new row version beside the old one
 * on its page and touches no index. Only the move out of the live states (done, dead, cancelled)
 * still writes index entries. `fillfactor = 50` leaves each heap page room for those versions: in
 * a probe of 30-row claims and acks, 90 % of claims were HOT at 50, 46 % at 80, 36 % at 100.
 * Adding `live` rewrites the table once, under an exclusive lock.
 */
export const MIGRATION_0002_HOT_CLAIM: Migration = {
  version: 2,
  name: 'hot-claim',
  statements: [
    `alter table :"SCHEMA".jobs set (fillfactor = 50)`,
    `alter table :"SCHEMA".jobs
  add column live boolean not null generated always as (state in ('ready', 'delayed', 'running', 'suspended')) stored`,
    `drop index :"SCHEMA".jobs_live_key_idx`,
    `create unique index jobs_live_key_idx on :"SCHEMA".jobs (name, coalesce(tenant_id, ''), idempotency_key)
  where live`,
    `drop index :"SCHEMA".jobs_claim_idx`,
    `create index jobs_claim_idx on :"SCHEMA".jobs (queue, priority desc, run_at, seq) where live`,
    // Event wake-ups look waiters up by name; only a suspended run has one (a claim clears it).
    `drop index :"SCHEMA".jobs_waiting_for_idx`,
    `create index jobs_waiting_for_idx on :"SCHEMA".jobs (waiting_for) where waiting_for is not null`,
    // Retention walks finished rows by age; live rows have no finish time.
    `drop index :"SCHEMA".jobs_done_idx`,
    `create index jobs_finished_idx on :"SCHEMA".jobs (finished_at) where finished_at is not null`,
  ],
};
