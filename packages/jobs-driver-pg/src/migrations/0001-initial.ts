import type { Migration } from './migration.js';

const LIVE = `('ready', 'delayed', 'running', 'suspended')`;

/** The first schema: jobs, steps, events, leases, schedules, backfills, paused queues, workers. */
export const MIGRATION_0001_INITIAL: Migration = {
  version: 1,
  name: 'initial',
  statements: [
    `create table :"SCHEMA".jobs (
  id text primary key,
  seq bigint generated always as identity,
  run_id text not null,
  name text not null,
  queue text not null,
  state text not null check (state in ('ready', 'delayed', 'running', 'suspended', 'done', 'dead', 'cancelled')),
  payload jsonb not null,
  tenant_id text,
  idempotency_key text not null,
  priority integer not null default 0,
  attempts integer not null default 0,
  max_attempts integer not null check (max_attempts > 0),
  enqueued_at timestamptz not null default now(),
  run_at timestamptz not null,
  started_at timestamptz,
  finished_at timestamptz,
  lease_expires_at timestamptz,
  worker_id text,
  claim_token text,
  last_error jsonb,
  stop_reason text check (stop_reason in ('terminal', 'attempts-exhausted')),
  result jsonb,
  progress jsonb,
  waiting_for text,
  cancel_reason text,
  enqueued_by text,
  traceparent text
)`,
    // Dedupe: at most one live row per (name, tenant, key); the arbiter of SQL_ENQUEUE's ON CONFLICT.
    `create unique index jobs_live_key_idx on :"SCHEMA".jobs (name, coalesce(tenant_id, ''), idempotency_key)
  where state in ${LIVE}`,
    // Claim: one ordered range per queue; lapsed `running` rows sit in it too (few: one per held job).
    `create index jobs_claim_idx on :"SCHEMA".jobs (queue, priority desc, run_at, seq)
  where state in ${LIVE}`,
    `create index jobs_run_id_idx on :"SCHEMA".jobs (run_id)`,
    `create index jobs_waiting_for_idx on :"SCHEMA".jobs (waiting_for) where state = 'suspended'`,
    `create index jobs_done_idx on :"SCHEMA".jobs (finished_at) where state = 'done'`,
    `create table :"SCHEMA".steps (
  run_id text not null,
  name text not null,
  position integer not null,
  status text not null check (status in ('started', 'completed', 'failed')),
  output jsonb,
  error jsonb,
  started_at timestamptz not null,
  completed_at timestamptz,
  primary key (run_id, name)
)`,
    `create table :"SCHEMA".events (
  id bigint generated always as identity primary key,
  event text not null,
  payload jsonb not null,
  published_at timestamptz not null default now(),
  expires_at timestamptz not null
)`,
    `create index events_find_idx on :"SCHEMA".events (event, published_at)`,
    `create index events_expires_idx on :"SCHEMA".events (expires_at)`,
    `create table :"SCHEMA".leases (
  token text primary key,
  key text not null,
  holder text not null,
  acquired_at timestamptz not null default now(),
  expires_at timestamptz not null
)`,
    `create index leases_key_idx on :"SCHEMA".leases (key, expires_at)`,
    `create table :"SCHEMA".schedules (
  task text primary key,
  watermark_ms bigint,
  paused boolean not null default false,
  updated_at timestamptz not null default now()
)`,
    `create table :"SCHEMA".backfills (
  name text not null,
  run_id text not null,
  checksum text not null,
  status text not null check (status in ('running', 'completed', 'failed')),
  rows_processed bigint not null default 0,
  cursor jsonb,
  started_at timestamptz not null,
  completed_at timestamptz,
  primary key (name, run_id)
)`,
    `create index backfills_started_idx on :"SCHEMA".backfills (started_at desc)`,
    `create table :"SCHEMA".paused_queues (
  queue text primary key,
  paused_at timestamptz not null default now()
)`,
    `create table :"SCHEMA".workers (
  id text primary key,
  queues text[] not null,
  concurrency integer not null,
  in_flight integer not null,
  host text not null,
  pid integer not null,
  started_at timestamptz not null,
  last_seen_at timestamptz not null,
  expires_at timestamptz not null
)`,
  ],
};
