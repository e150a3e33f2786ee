import type { JsonValue } from '../values/json.js';
import type { BackfillLedger } from './backfill-ledger.js';
import type { ClaimedJob, ClaimOptions, ClaimRef } from './claim.js';
import type { EnqueueRequest, EnqueueResult } from './enqueue.js';
import type { EventStore } from './event-store.js';
import type { JobIntrospection } from './introspection.js';
import type { LeaseStore } from './lease-store.js';
import type { JobProgress, NackOptions } from './nack.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { QueueStats } from './stats.js';
import type { StepStore } from './step-store.js';
import type { WakeSource } from './wake.js';

/**
 * The one interface every backend implements. Job code never names a backend; it runs the same
 * on any driver that passes `@x/jobs-conformance`.
 *
 * Guarantees every implementation owes:
 * - **Live-only dedupe**: at most one row in a live state (`ready`, `delayed`, `running`,
 *   `suspended`) per `(name, tenantId, idempotencyKey)`, even under concurrent enqueues. A key
 *   whose row is terminal enqueues a new row.
 * - **Exclusive claims**: a row is handed to one claimer at a time; it is claimable again only
 *   once its lease lapses (an attempt that started stays counted; a claim that never started
 *   counts nothing).
 * - **Fencing**: `ack`, `nack`, `heartbeat`, `progress` and `steps.save` land only while the row
 *   is `running` under the same claim token; otherwise they answer false and change nothing.
 * - **Ordering**: claims take higher `priority` first, then earlier `runAt`, then enqueue order.
 * - Failures of the backend surface as `JobsError` `X_DRIVER_UNAVAILABLE` (retryable), never a
 *   silent drop or an unbounded wait; after `close()` every call is `X_DRIVER_CLOSED`.
 */
export interface JobDriver {
  /** A short name for logs: `'memory'`, `'postgres'`, `'pglite'`, `'redis'`. */
  readonly name: string;
  /** Durable step records, on the same backend as the queue. */
  readonly steps: StepStore;
  /** Events for `publishEvent` / `step.waitForEvent`. */
  readonly events: EventStore;
  /**
   * Operator capabilities. Optional in the type so a partial third-party driver still runs jobs;
   * the conformance suite fails a driver without it, and every @x driver's factory answers a
   * {@link CompleteJobDriver}, where it (like `leases`, `rateLimits`, `schedules`, `backfills`) is
   * required.
   */
  readonly introspect?: JobIntrospection;
  /**
   * Fleet-wide slots with TTL: `job.concurrency` and the scheduler's leader. A worker refuses to
   * start (`X_JOB_CONCURRENCY_UNENFORCEABLE`) when a registered job needs it and it is absent.
   */
  readonly leases?: LeaseStore;
  /**
   * Fleet-wide sliding-window rate limits: `job.rateLimit`. A worker refuses to start
   * (`X_JOB_RATE_LIMIT_UNENFORCEABLE`) when a registered job declares one and it is absent.
   */
  readonly rateLimits?: RateLimitStore;
  /** Scheduler watermarks; the scheduler refuses to start without it unless told otherwise. */
  readonly schedules?: ScheduleStore;
  /** The backfill ledger. */
  readonly backfills?: BackfillLedger;
  /**
   * How long `done` rows are kept before a worker's hourly purge removes them, when the driver
   * owns that setting (a worker's own `doneRetentionMs` wins). Absent: the worker's default.
   */
  readonly doneRetentionMs?: number;
  /** A push wake for idle workers, when the backend has one. */
  readonly wake?: WakeSource;
  /** The driver's clock (epoch ms): what `runAt` and leases are compared against. */
  now(): number;

  /**
   * Writes one row unless a live row holds its `(name, tenantId, idempotencyKey)`, atomically.
   * A new row is `delayed` when `runAt` is in the future, else `ready`. Under
   * `onConflict: 'error'` a live duplicate throws `X_JOB_DUPLICATE`. A request whose `id` is
   * already a row (in any state) writes nothing and answers that row with `deduped: true`, so a
   * republish (an outbox relay retrying after a crash) is idempotent.
   */
  enqueue(request: EnqueueRequest): Promise<EnqueueResult>;
  /**
   * Writes many rows with the same rules, answering in request order. A key repeated inside the
   * batch dedupes to the first. Every request dedupes: a driver does not read `onConflict` here
   * (a request carrying `'error'` that meets a live row answers it with `deduped: true`); the one
   * place that refuses `'error'` for a batch is core's `handle.enqueueMany`, before any driver.
   * Callers send at most 1,000 per call; a driver does it in one round trip.
   */
  enqueueMany(requests: readonly EnqueueRequest[]): Promise<readonly EnqueueResult[]>;
  /**
   * Atomically takes up to `limit` due rows of unpaused `queues` (`ready`; `delayed`/`suspended`
   * past `runAt`; `running` whose lease lapsed), marks them `running` under a fresh token with
   * `leaseExpiresAt = now + visibilityTimeoutMs`. A claim counts **no** attempt: only
   * {@link JobDriver.start} does, so a row claimed into a prefetch buffer and lost with its
   * process comes back with the attempts it had. Each row says whether it was taken from a lapsed
   * lease ({@link ClaimedJob.lapsed}).
   */
  claim(options: ClaimOptions): Promise<readonly ClaimedJob[]>;
  /**
   * Records that this claim's body runs: counts one attempt on the row and extends its lease to
   * now + `visibilityTimeoutMs`, atomically, fenced on the claim (the row is `running` under this
   * token). Called at most once per claim, as the body begins: awaited before it, except for the
   * first attempt of a fresh claim (`lapsed: false`), whose body runs while the start is in
   * flight and whose settle waits for it. False when the claim no longer holds the row
   * (cancelled, reclaimed, settled), and when the row's `attempts` already reached `maxAttempts`
   * (attempts never pass the cap): the body must not run, or is stopped if it began.
   */
  start(jobId: string, claim: ClaimRef, visibilityTimeoutMs: number): Promise<boolean>;
  /** Marks the row `done` with its result. Fenced on the claim. */
  ack(jobId: string, claim: ClaimRef, result?: JsonValue): Promise<boolean>;
  /** Hands the row back: retry, release, suspend or dead (see {@link NackOptions}). Fenced on the claim. */
  nack(jobId: string, claim: ClaimRef, options: NackOptions): Promise<boolean>;
  /**
   * Extends the lease to now + `visibilityTimeoutMs`. False when the claim no longer holds the
   * row (cancelled, reclaimed, settled): the holder must stop.
   */
  heartbeat(jobId: string, claim: ClaimRef, visibilityTimeoutMs: number): Promise<boolean>;
  /** Persists progress on the row. Fenced on the claim. */
  progress(jobId: string, claim: ClaimRef, progress: JobProgress): Promise<boolean>;
  /** Per-queue counts for every queue with a row or a pause flag, sorted by queue name. */
  stats(): Promise<readonly QueueStats[]>;
  /**
   * Optional. Opens the backend — connects, checks the settings (and migrates, where the driver
   * does) — and resolves once a call could be served. Rejects with a configuration code
   * (`isConfigurationError`: a missing database, refused credentials, a malformed URL, an unknown
   * host; never retryable) or, during an outage, `X_DRIVER_UNAVAILABLE`. A driver without it opens
   * on its first call. `worker.start()` awaits it.
   */
  ready?(): Promise<void>;
  /** Releases connections and timers. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * A {@link JobDriver} with every store present: what `memoryJobDriver`, `postgresJobDriver`,
 * `pgliteJobDriver` and `redisJobDriver` answer, so code written against one (an operator tool
 * reading `driver.introspect`, a scheduler reading `driver.schedules`) compiles against any other.
 * The conformance suite requires all five of these members.
 */
export interface CompleteJobDriver extends JobDriver {
  readonly introspect: JobIntrospection;
  readonly leases: LeaseStore;
  readonly rateLimits: RateLimitStore;
  readonly schedules: ScheduleStore;
  readonly backfills: BackfillLedger;
}
