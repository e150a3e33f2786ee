import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Execution,
  type ExecutionSettings,
  type HandleSource,
  runTracedThen,
} from '../attempt/execute-job.js';
import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import { errorCode } from '../errors/jobs-error.js';
import { isJobHandle } from '../job/definition-of.js';
import { ChurnMap } from '../primitives/churn-map.js';
import { jobRegistry } from '../registry/process-registry.js';
import { createJobMetrics, type JobMetrics } from '../telemetry/job-metrics.js';
import { type JobsLogger, jsonLinesLogger } from '../telemetry/logger.js';
import { type ClaimLoopHost, runClaimLoop } from './claim-loop.js';
import { drainingError, drainOnSignals } from './drain-signals.js';
import { HeldRun } from './held-run.js';
import { startHousekeeping } from './housekeeping.js';
import { openDriver } from './open-driver.js';
import { ProcessLimiter } from './process-limiter.js';
import { type QueuePool, wakePools } from './queue-pool.js';
import { runDue } from './run-due.js';
import { UnknownJobs } from './unknown-jobs.js';
import {
  assertEnforceable,
  assertStartable,
  buildPools,
  checkedWorkerOptions,
  executionSettingsOf,
} from './worker-config.js';
import { defaultStallMs, HealthTracker, type WorkerHealth } from './worker-health.js';
import type { Worker, WorkerOptions, WorkerStats } from './worker-options.js';

/** How long a claim of a row this worker still runs is handed back for (the older attempt ends first). */
const OWN_RUN_DEFER_MS = 1_000;

/**
 * Creates a worker: per-queue pools that claim in batches sized to their free slots, run each job
 * through `executeJob` (heartbeats, leases, fleet slots, timeouts), sleep on the driver's wake when
 * idle, and drain on SIGTERM. Call `start()`.
 */
export function createWorker(options: WorkerOptions): Worker {
  return new JobWorker(options);
}

class JobWorker implements Worker {
  readonly id: string;
  /** Set by a drain (`X_DRAINING`): every held job is interrupted with it, and any started later. */
  #drainReason: unknown;
  /** Set at the drain deadline: executions stop renewing leases they can no longer honour. */
  #abandoned = false;
  /** What every execution of this worker shares; rebuilt once metrics exist (at start). */
  #settings: ExecutionSettings;
  readonly #options: WorkerOptions;
  readonly #driver: JobDriver;
  /** The worker gauges' `worker` attribute: stable across restarts (no pid, no random part). */
  readonly #workerName: string;
  readonly #logger: JobsLogger;
  readonly #registry: HandleSource;
  readonly #limiter: ProcessLimiter;
  readonly #visibilityTimeoutMs: number;
  readonly #idlePollMaxMs: number;
  readonly #pools: QueuePool[];
  readonly #unknown: UnknownJobs;
  readonly #health: HealthTracker;
  /** True while `start()` waits for the driver to open. */
  #opening = false;
  /**
   * Keyed by job id: a worker holds at most one attempt of a job. A claim of a row whose older
   * attempt this worker still runs supersedes that attempt and is handed back (see {@link #run}).
   */
  readonly #held = new ChurnMap<HeldRun>();
  /** The drain deadline, armed by the first `drain()` only. */
  #drainDeadline: ReturnType<typeof setTimeout> | undefined;
  readonly #counts: Record<string, number> = {};
  #maxInFlight = 0;
  #state: WorkerStats['state'] = 'idle';
  #loops: Promise<void>[] = [];
  #closing: Promise<void> | undefined;
  #abandon: (() => void) | undefined;
  #metrics: JobMetrics | undefined;
  #cleanups: (() => void)[] = [];
  readonly #startedAt = Date.now();
  #markStopped: () => void = () => {};
  readonly #stopped = new Promise<void>((resolve) => {
    this.#markStopped = resolve;
  });

  constructor(options: WorkerOptions) {
    const timings = checkedWorkerOptions(options);
    this.#options = options;
    this.#driver = options.driver;
    this.#health = new HealthTracker(
      timings.healthStallMs ?? defaultStallMs(timings.idlePollMaxMs),
      timings.visibilityTimeoutMs,
    );
    this.#logger = this.#health.watch(options.logger ?? jsonLinesLogger());
    this.#registry = options.registry ?? jobRegistry();
    this.#limiter = new ProcessLimiter(options.limits);
    this.#visibilityTimeoutMs = timings.visibilityTimeoutMs;
    this.#idlePollMaxMs = timings.idlePollMaxMs;
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.#workerName = options.workerName ?? options.workerId ?? hostname();
    this.#pools = buildPools(options, this.#registry);
    this.#unknown = new UnknownJobs(this.#logger, this.id);
    this.#settings = this.#executionSettings();
  }

  #executionSettings(): ExecutionSettings {
    return executionSettingsOf(this.#options, {
      driver: this.#driver,
      registry: this.#registry,
      visibilityTimeoutMs: this.#visibilityTimeoutMs,
      logger: this.#logger,
      metrics: this.#metrics,
    });
  }

  async start(): Promise<void> {
    assertStartable(this.id, this.#state, this.#opening, this.#driver, this.#registry);
    this.#opening = true;
    try {
      await openDriver(this.#driver, this.#logger, this.id);
    } finally {
      this.#opening = false;
    }
    if (this.#state !== 'idle') return; // stopped while the driver opened
    this.#state = 'running';
    this.#metrics = createJobMetrics({
      driver: this.#driver,
      workerName: this.#workerName,
      inFlight: () => this.#held.size,
      capacity: () => this.#capacity(),
    });
    this.#settings = this.#executionSettings();
    const unwake = wakePools(this.#driver, this.#pools);
    if (unwake !== undefined) this.#cleanups.push(unwake);
    if (this.#options.handleSignals ?? true)
      this.#cleanups.push(drainOnSignals(this.#logger, this.id, () => this.drain()));
    this.#cleanups.push(
      ...startHousekeeping({
        id: this.id,
        driver: this.#driver,
        logger: this.#logger,
        queues: this.#pools.map((pool) => pool.queue),
        startedAt: this.#startedAt,
        doneRetentionMs: this.#options.doneRetentionMs,
        capacity: () => this.#capacity(),
        inFlight: () => this.#held.size,
      }),
    );
    this.#logger.log('info', 'jobs.worker.started', {
      workerId: this.id,
      driver: this.#driver.name,
      queues: this.#pools.map((pool) => `${pool.queue}:${pool.capacity}`),
    });
    const host: ClaimLoopHost = {
      workerId: this.id,
      driver: this.#driver,
      logger: this.#logger,
      visibilityTimeoutMs: this.#visibilityTimeoutMs,
      idlePollMaxMs: this.#idlePollMaxMs,
      staleBufferMs: this.#staleBufferMs(),
      prefetchOption: this.#options.prefetch,
      running: () => this.#state === 'running',
      startBuffered: (pool) => this.#startBuffered(pool),
      handBack: (job) => this.#handBack(job),
      health: this.#health,
    };
    this.#loops = this.#pools.map((pool) => runClaimLoop(host, pool));
  }

  get stopped(): Promise<void> {
    return this.#stopped;
  }

  stop(): Promise<void> {
    return this.#shutdown();
  }

  drain(): Promise<void> {
    if (this.#drainReason === undefined) {
      this.#drainReason = drainingError(this.id);
      for (const held of this.#held.values()) held.execution.interrupt(this.#drainReason);
    }
    const closing = this.#shutdown();
    // Armed once: a second drain() (SIGTERM, then the app's own stop) reports and abandons nothing twice.
    this.#drainDeadline ??= setTimeout(() => this.#abandonHeld(), this.#options.drainTimeoutMs ?? 10_000);
    this.#drainDeadline.unref?.();
    return closing.finally(() => clearTimeout(this.#drainDeadline));
  }

  /** The drain deadline: logs the jobs still held once, and stops renewing their leases. */
  #abandonHeld(): void {
    if (this.#held.size > 0) {
      this.#logger.log('error', 'jobs.worker.drain-abandoned', {
        workerId: this.id,
        jobs: [...this.#held.keys()],
      });
      this.#abandoned = true;
      for (const held of this.#held.values()) held.execution.abandon();
    }
    this.#abandon?.();
  }

  runDue(): Promise<number> {
    assertEnforceable(this.#driver, this.#registry);
    return runDue({
      driver: this.#driver,
      workerId: this.id,
      queues: this.#pools.map((pool) => pool.queue),
      limit: Math.max(1, this.#capacity()),
      visibilityTimeoutMs: this.#visibilityTimeoutMs,
      runToEnd: (job, sentAt) => this.#runToEnd(undefined, job, sentAt),
    });
  }

  health(): WorkerHealth {
    return this.#health.read(this.#state);
  }

  stats(): WorkerStats {
    return {
      inFlight: this.#held.size,
      maxInFlight: this.#maxInFlight,
      capacity: this.#capacity(),
      counts: { ...this.#counts },
      state: this.#state,
    };
  }

  /**
   * Starts buffered jobs while the pool has free slots. A job that waited in the buffer past a third
   * of its lease is handed back (uncounted) instead, so prefetching never lets a lease lapse.
   * Called by the claim loop and by every freed slot, so a slot never waits for a claim in flight.
   */
  #startBuffered(pool: QueuePool): void {
    for (const job of pool.takeStale(this.#staleBufferMs())) void this.#handBack(job);
    while (pool.inFlight < pool.capacity) {
      const buffered = pool.next();
      if (buffered === undefined) break;
      void this.#run(pool, buffered.job, buffered.at);
    }
  }

  /**
   * Runs one claimed job (`leaseFrom`: when its claim was sent). Over a process limit it is handed
   * back uncounted. A claim of a row whose older attempt this worker still runs (its lease lapsed,
   * its body ignores its signal) never becomes a second attempt: the older one is stopped — its
   * claim is superseded, it settles nothing — and the new claim is handed back, uncounted, for
   * {@link OWN_RUN_DEFER_MS}. One whose older attempt only has its settle left (a suspension woken
   * at once) runs when that attempt is over: no two bodies can overlap.
   * Answers the hand-back or the wait as a promise; undefined once the attempt runs (its end is
   * its {@link HeldRun}'s `done`, asked for only by whoever waits).
   */
  #run(pool: QueuePool | undefined, job: ClaimedJob, leaseFrom: number): Promise<void> | undefined {
    if (!isJobHandle(this.#registry.get(job.name))) {
      // Never run, never charged: back to the backend for a worker that knows the name (unknown-jobs.ts).
      this.#count('unknown');
      return this.#handBack(job, this.#driver.now() + this.#unknown.defer(job));
    }
    const older = this.#held.get(job.id);
    if (older?.workDone && older.execution.lingering === undefined) {
      // Hold this row's slot while the older settle lands, so no other job takes it meanwhile.
      pool?.take();
      return older.done.then(() => {
        pool?.give();
        return this.#runToEnd(pool, job, leaseFrom);
      });
    }
    if (older !== undefined) {
      older.execution.supersede();
      this.#count('deferred');
      this.#logger.log('warn', 'jobs.claim.own-run-held', { jobId: job.id, workerId: this.id });
      return this.#handBack(job, this.#driver.now() + OWN_RUN_DEFER_MS, pool);
    }
    const admission = this.#limiter.admit(job.queue, job.tenantId, this.#driver);
    if (!admission.admitted) {
      this.#count('deferred');
      this.#logger.log('debug', 'jobs.limit.deferred', { jobId: job.id, cap: admission.cap });
      return this.#handBack(job, this.#driver.now() + admission.retryInMs, pool);
    }
    pool?.take();
    let slotFreed = false;
    // Slot and limit are freed when the work is over (`held` stays until the settle lands): the next
    // buffered job starts at once, beside this settle, not waiting for a claim in flight.
    const freeSlot = () => {
      held.workDone = true;
      if (slotFreed) return;
      slotFreed = true;
      admission.release();
      if (pool === undefined) return;
      pool.give();
      if (this.#state === 'running') this.#startBuffered(pool);
    };
    const execution = new Execution(this.#settings, job, freeSlot, leaseFrom);
    if (this.#drainReason !== undefined) execution.interrupt(this.#drainReason);
    if (this.#abandoned) execution.abandon();
    const held = new HeldRun(execution);
    this.#held.set(job.id, held);
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#held.size);
    const finish = (outcome: string, runAt?: number): void => {
      this.#count(outcome);
      if (runAt !== undefined) pool?.dueIn(runAt - this.#driver.now());
      freeSlot();
      // A body its attempt left running (a lost lease, a timeout) still holds the job here, so a
      // claim of the same row meanwhile is handed back rather than run beside it. (Shutdown does
      // not wait for it: `done` is the attempt's.)
      const lingering = execution.lingering;
      if (lingering === undefined) this.#release(job.id, held);
      else void lingering.then(() => this.#release(job.id, held));
      held.end();
    };
    runTracedThen(
      execution,
      (result) => finish(result.outcome, result.runAt),
      (error: unknown) => {
        this.#logger.log('error', 'jobs.execute.crashed', {
          jobId: job.id,
          name: job.name,
          code: errorCode(error) ?? null,
          message: error instanceof Error ? error.message : String(error),
        });
        finish('crashed');
      },
    );
    return undefined;
  }

  /** {@link #run}, answering when the attempt it ran ended (or the row was handed back). */
  #runToEnd(pool: QueuePool | undefined, job: ClaimedJob, leaseFrom: number): Promise<void> {
    return this.#run(pool, job, leaseFrom) ?? this.#held.get(job.id)?.done ?? Promise.resolve();
  }

  /** Forgets the held attempt of `jobId` (if it is still `held`). */
  #release(jobId: string, held: HeldRun): void {
    if (this.#held.get(jobId) === held) this.#held.delete(jobId);
  }

  /** Releases a claimed row unstarted, its attempt uncounted (at `runAt`, else now; `pool` claims then). */
  #handBack(job: ClaimedJob, runAt?: number, pool?: QueuePool): Promise<void> {
    if (runAt !== undefined) pool?.dueIn(runAt - this.#driver.now());
    return this.#driver
      .nack(job.id, job.claim, { kind: 'release', ...(runAt === undefined ? {} : { runAt }) })
      .then(
        () => undefined,
        (error: unknown) =>
          this.#logger.log('warn', 'jobs.settle.failed', { jobId: job.id, code: errorCode(error) ?? null }),
      );
  }

  #shutdown(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    const wasRunning = this.#state === 'running';
    this.#state = 'draining';
    for (const pool of this.#pools) pool.close();
    // Armed before anything is awaited: a drain deadline that passes while a pool is still inside a
    // claim abandons too.
    const abandoned = new Promise<void>((resolve) => {
      this.#abandon = resolve;
    });
    this.#closing = (async () => {
      const settled = (async () => {
        await Promise.all(this.#loops);
        // A drain also waits (up to its deadline) for bodies their attempts left running.
        const draining = this.#drainReason !== undefined;
        await Promise.all([...this.#held.values()].map((held) => (draining ? held.bodyEnded() : held.done)));
      })();
      await Promise.race([settled, abandoned]);
      for (const cleanup of this.#cleanups.splice(0)) cleanup();
      this.#metrics?.close();
      if (wasRunning) {
        await this.#driver.introspect?.removeWorker(this.id).catch(() => undefined);
        this.#logger.log('info', 'jobs.worker.stopped', { workerId: this.id, counts: { ...this.#counts } });
      }
      this.#state = 'stopped';
      this.#markStopped();
    })();
    return this.#closing;
  }

  /**
   * How long a claimed job may wait in a pool's buffer: a third of its lease, and at most 2 s, so a
   * worker busy with long jobs hands prefetched work back to idle workers quickly.
   */
  #staleBufferMs(): number {
    return Math.min(this.#visibilityTimeoutMs / 3, 2_000);
  }

  #capacity(): number {
    return this.#pools.reduce((sum, pool) => sum + pool.capacity, 0);
  }

  #count(outcome: string): void {
    this.#counts[outcome] = (this.#counts[outcome] ?? 0) + 1;
  }
}
