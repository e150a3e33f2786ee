import type { ColumnType, Generated } from 'kysely';

/** A timestamptz column: read as a Date, written from SQL expressions (`now()`, `to_timestamp`). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** An int8 column: node-postgres reads it as a string, PGlite as a number. */
type Int8 = ColumnType<string | number, number | string, number | string>;
/** A timestamptz column with a default (`now()`). */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** An identity column: read only. */
type Identity = ColumnType<string | number, never, never>;
/** A jsonb column, written as JSON text. */
type Jsonb<T> = ColumnType<T, string | null, string | null>;

/** The `jobs` table (see migrations/0001-initial.ts and 0002-hot-claim.ts). */
export interface JobsTable {
  id: string;
  seq: Identity;
  run_id: string;
  name: string;
  queue: string;
  state: string;
  payload: Jsonb<unknown>;
  tenant_id: string | null;
  idempotency_key: string;
  priority: number;
  attempts: number;
  max_attempts: number;
  enqueued_at: Timestamp;
  run_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  lease_expires_at: Timestamp | null;
  worker_id: string | null;
  claim_token: string | null;
  last_error: Jsonb<unknown>;
  stop_reason: string | null;
  result: Jsonb<unknown>;
  progress: Jsonb<unknown>;
  waiting_for: string | null;
  cancel_reason: string | null;
  enqueued_by: string | null;
  traceparent: string | null;
  /** The failed attempts' records, oldest first (migration 6); null before the first failure. */
  attempt_errors: Jsonb<unknown>;
  /** Generated from `state` (migration 2): true while the row is ready, delayed, running or suspended. */
  live: ColumnType<boolean, never, never>;
}

/** The `job_history` table (migration 4): finished rows, moved out of `jobs` when they settle. */
export interface JobHistoryTable extends Omit<JobsTable, 'seq' | 'live'> {
  seq: Int8;
}

/** The `steps` table. */
export interface StepsTable {
  run_id: string;
  name: string;
  position: number;
  status: string;
  output: Jsonb<unknown>;
  error: Jsonb<unknown>;
  started_at: Timestamp;
  completed_at: Timestamp | null;
}

/** The `events` table. */
export interface EventsTable {
  id: Identity;
  event: string;
  payload: Jsonb<unknown>;
  published_at: DefaultTimestamp;
  expires_at: Timestamp;
}

/** The `leases` table: one row per held slot. */
export interface LeasesTable {
  token: string;
  key: string;
  holder: string;
  acquired_at: DefaultTimestamp;
  expires_at: Timestamp;
}

/** The `schedules` table. */
export interface SchedulesTable {
  task: string;
  watermark_ms: Int8 | null;
  paused: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

/** The `backfills` table. */
export interface BackfillsTable {
  name: string;
  run_id: string;
  checksum: string;
  status: string;
  rows_processed: Int8;
  cursor: Jsonb<unknown>;
  started_at: Timestamp;
  completed_at: Timestamp | null;
}

/** The `paused_queues` table. */
export interface PausedQueuesTable {
  queue: string;
  paused_at: DefaultTimestamp;
}

/** The `workers` table. */
export interface WorkersTable {
  id: string;
  queues: string[];
  concurrency: number;
  in_flight: number;
  host: string;
  pid: number;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

/** The driver's tables, for the statements Kysely builds (`db.withSchema(schema)`). */
export interface JobsDatabase {
  jobs: JobsTable;
  job_history: JobHistoryTable;
  steps: StepsTable;
  events: EventsTable;
  leases: LeasesTable;
  schedules: SchedulesTable;
  backfills: BackfillsTable;
  paused_queues: PausedQueuesTable;
  workers: WorkersTable;
}
