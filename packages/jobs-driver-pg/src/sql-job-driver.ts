import type { CompleteJobDriver, JsonValue, QueueStats } from '@x/jobs-core';
import type {
  ClaimedJob,
  ClaimOptions,
  ClaimRef,
  EnqueueRequest,
  EnqueueResult,
  JobProgress,
  NackOptions,
  QueueSettings,
  WakeSource,
} from '@x/jobs-core/driver';
import { refuseAfterClose } from '@x/jobs-core/driver';
import type { Kysely } from 'kysely';
import type { JobsDatabase } from './database-types.js';
import { dbClock } from './db-clock.js';
import { createDriverContext } from './driver-context.js';
import { DriverStart } from './driver-start.js';
import { createIntrospection } from './introspection/create-introspection.js';
import { migrateSchema } from './migrations/migrate-schema.js';
import { claimJobs } from './queue/claim.js';
import { enqueueMany, enqueueOne } from './queue/enqueue.js';
import { createReleaseBatch } from './queue/release.js';
import { ackJob, createAckBatch, heartbeatJob, nackJob, recordProgress } from './queue/settle.js';
import { createStartBatch, startJob } from './queue/start.js';
import { queueStats } from './queue/stats.js';
import { kyselySession, type SqlSession } from './sql-session.js';
import { bindStatements } from './statements.js';
import { createBackfillLedger } from './stores/backfill-ledger.js';
import { createEventStore } from './stores/event-store.js';
import { createLeaseStore } from './stores/lease-store.js';
import { createRateLimitStore } from './stores/rate-limit-store.js';
import { createScheduleStore } from './stores/schedule-store.js';
import { createStepStore } from './stores/step-store.js';
import { WakeHub } from './wake/wake-hub.js';
import type { WakeTransport } from './wake/wake-transport.js';

/**
 * The Postgres `JobDriver` (also what the PGlite entry answers): a `CompleteJobDriver` (every
 * store required), plus the schema it lives in, the retention the purger applies, and an explicit start.
 */
export interface PostgresJobDriver extends CompleteJobDriver {
  /** The schema holding the driver's tables. */
  readonly schema: string;
  /**
   * How long `done` rows are kept (0 under `retention: { done: 0 }`: none are): whoever purges (the worker or the scheduler) calls
   * `introspect.purge({ doneBefore: driver.now() - driver.doneRetentionMs })`.
   */
  readonly doneRetentionMs: number;
  /**
   * Starts the driver now instead of on the first call: applies pending migrations (unless
   * `migrate: false`) and samples the database clock for `now()`. Idempotent; a failure is
   * retried by the next call.
   */
  ready(): Promise<void>;
}

/** What a backend entry hands {@link createSqlJobDriver}. */
export interface SqlDriverRuntime {
  readonly name: string;
  readonly db: Kysely<JobsDatabase>;
  /** Where the verbatim statements run, when not through `db` (pg's named prepared statements). */
  readonly session?: SqlSession | undefined;
  readonly schema: string;
  readonly migrate: boolean;
  readonly doneRetentionMs: number;
  /** False under `retention: { done: 0 }`: acks delete rows instead of keeping them in `job_history`. */
  readonly keepDone: boolean;
  /** The parsed `queues` option. */
  readonly queues: QueueSettings;
  /** The push wake, when this backend has one. */
  readonly wake?: WakeTransport | undefined;
  /** Releases what the entry opened (pool, PGlite instance, lock), after the last call settled. */
  readonly release: () => Promise<void>;
}

/** Assembles the driver over one Kysely instance: the shared body of the Postgres and PGlite entries. */
export function createSqlJobDriver(runtime: SqlDriverRuntime): PostgresJobDriver {
  const db = runtime.db;
  const clock = dbClock(kyselySession(db));
  const wakeHub = runtime.wake === undefined ? undefined : new WakeHub(runtime.wake);
  const lifecycle = new DriverStart(async () => {
    if (runtime.migrate) await migrateSchema(db, runtime.schema);
    await clock.sync();
    clock.start();
    await wakeHub?.start();
  });
  const ctx = createDriverContext({
    schema: runtime.schema,
    sql: bindStatements(runtime.schema, { keepDone: runtime.keepDone }),
    clock,
    queues: runtime.queues,
    db,
    session: runtime.session,
    ready: () => lifecycle.ready(),
  });
  const acks = createAckBatch(ctx);
  const starts = createStartBatch(ctx);
  const releases = createReleaseBatch(ctx);

  return refuseAfterClose<PostgresJobDriver>({
    name: runtime.name,
    schema: runtime.schema,
    doneRetentionMs: runtime.doneRetentionMs,
    steps: createStepStore(ctx),
    events: createEventStore(ctx),
    introspect: createIntrospection(ctx),
    leases: createLeaseStore(ctx),
    rateLimits: createRateLimitStore(ctx),
    schedules: createScheduleStore(ctx),
    backfills: createBackfillLedger(ctx),
    ...(wakeHub === undefined ? {} : { wake: wakeHub as WakeSource }),
    now: () => clock.now(),
    ready: () => lifecycle.ready(),
    enqueue: (request: EnqueueRequest): Promise<EnqueueResult> => enqueueOne(ctx, request),
    enqueueMany: (requests: readonly EnqueueRequest[]): Promise<readonly EnqueueResult[]> =>
      requests.length === 0 ? Promise.resolve([]) : enqueueMany(ctx, requests),
    claim: (options: ClaimOptions): Promise<readonly ClaimedJob[]> => claimJobs(ctx, options),
    start: (jobId: string, claim: ClaimRef, visibilityTimeoutMs: number): Promise<boolean> =>
      startJob(starts, jobId, claim, visibilityTimeoutMs),
    ack: (jobId: string, claim: ClaimRef, result?: JsonValue): Promise<boolean> =>
      ackJob(acks, jobId, claim, result),
    nack: (jobId: string, claim: ClaimRef, options: NackOptions): Promise<boolean> =>
      nackJob(ctx, releases, jobId, claim, options),
    heartbeat: (jobId: string, claim: ClaimRef, visibilityTimeoutMs: number): Promise<boolean> =>
      heartbeatJob(ctx, jobId, claim, visibilityTimeoutMs),
    progress: (jobId: string, claim: ClaimRef, progress: JobProgress): Promise<boolean> =>
      recordProgress(ctx, jobId, claim, progress),
    stats: (): Promise<readonly QueueStats[]> => queueStats(ctx),
    async close(): Promise<void> {
      clock.stop();
      await wakeHub?.stop();
      await runtime.release();
    },
  });
}
