import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import { Execution, type ExecutionSettings, type HandleSource, runTraced } from '../execute/execute-job.js';
import { definitionOf } from '../job/definition-of.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import { jobRegistry } from '../registry/process-registry.js';
import { createJobMetrics, type JobMetrics } from '../telemetry/job-metrics.js';
import { type JobsLogger, jsonLinesLogger } from './logger.js';
import { ProcessLimiter } from './process-limiter.js';
import { QueuePool } from './queue-pool.js';
import type { Worker, WorkerOptions, WorkerStats } from './worker-options.js';

/** How long an idle pool first waits before claiming again; it doubles up to `idlePollMaxMs`. */
const FIRST_IDLE_WAIT_MS = 25;
/** The largest buffer a pool grows to while its claims keep coming back full. */
const MAX_PREFETCH_BOOST = 500;
/** How often the worker reports itself for `x-jobs workers`, and how long a report lives. */
const REPORT_EVERY_MS = 10_000;
const REPORT_TTL_MS = 30_000;
/** How often done rows are purged. */
const PURGE_EVERY_MS = 3_600_000;
const WEEK_MS = 7 * 86_400_000;

/**
 * Creates a worker: per-queue pools that claim in batches sized to their free slots, run each job
 * through `executeJob` (heartbeats, leases, fleet slots, timeouts), sleep on the driver's wake when
 * idle, and drain on SIGTERM. Call `start()`.
 */
export function createWorker(options: WorkerOptions): Worker {
  return new JobWorker(options);
}

interface Held {
  readonly execution: Execution;
  done: Promise<void>;
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
  /** Keyed by claim token: a stale run of a job and its redelivery to this worker are two entries. */
  readonly #held = new Map<string, Held>();
  readonly #counts: Record<string, number> = {};
  #maxInFlight = 0;
  #state: WorkerStats['state'] = 'idle';
  #loops: Promise<void>[] = [];
  #closing: Promise<void> | undefined;
  #abandon: (() => void) | undefined;
  #metrics: JobMetrics | undefined;
  #cleanups: (() => void)[] = [];
  readonly #startedAt = Date.now();

  constructor(options: WorkerOptions) {
    if (options.driver === undefined || options.driver === null) {
      throw coreError('X_WORKER_OPTIONS_INVALID', 'createWorker: driver is required.', { field: 'driver' });
    }
    if (typeof options.context !== 'function') {
      throw coreError(
        'X_WORKER_OPTIONS_INVALID',
        'createWorker: context must be a function building the ctx of a run.',
        {
          field: 'context',
        },
      );
    }
    this.#options = options;
    this.#driver = options.driver;
    this.#logger = options.logger ?? jsonLinesLogger();
    this.#registry = options.registry ?? jobRegistry();
    this.#limiter = new ProcessLimiter(options.limits);
    this.#visibilityTimeoutMs = positive(options.visibilityTimeoutMs, 30_000, 'visibilityTimeoutMs');
    const heartbeat = positive(options.heartbeatIntervalMs, 1, 'heartbeatIntervalMs');
    if (options.heartbeatIntervalMs !== undefined && heartbeat >= this.#visibilityTimeoutMs) {
      throw coreError(
        'X_WORKER_OPTIONS_INVALID',
        `createWorker: heartbeatIntervalMs (${heartbeat}) must be shorter than visibilityTimeoutMs (${this.#visibilityTimeoutMs}), or every lease lapses between renewals.`,
        { field: 'heartbeatIntervalMs' },
      );
    }
    positive(options.drainTimeoutMs, 1, 'drainTimeoutMs');
    this.#idlePollMaxMs = positive(
      options.idlePollMaxMs,
      this.#driver.wake === undefined ? 2_000 : 5_000,
      'idlePollMaxMs',
    );
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.#workerName = options.workerName ?? options.workerId ?? hostname();
    this.#pools = this.#buildPools();
    this.#settings = this.#executionSettings();
  }

  #executionSettings(): ExecutionSettings {
    const options = this.#options;
    return {
      driver: this.#driver,
      registry: this.#registry,
      context: options.context,
      visibilityTimeoutMs: this.#visibilityTimeoutMs,
      ...(options.heartbeatIntervalMs === undefined
        ? {}
        : { heartbeatIntervalMs: options.heartbeatIntervalMs }),
      logger: this.#logger,
      ...(this.#metrics === undefined ? {} : { metrics: this.#metrics }),
      ...(options.observer === undefined ? {} : { observer: options.observer }),
    };
  }

  async start(): Promise<void> {
    if (this.#state !== 'idle') {
      throw coreError('X_WORKER_OPTIONS_INVALID', `worker ${this.id} was already started.`, {
        field: 'start',
      });
    }
    this.#assertEnforceable();
    this.#state = 'running';
    this.#metrics = createJobMetrics({
      driver: this.#driver,
      workerName: this.#workerName,
      inFlight: () => this.#held.size,
      capacity: () => this.#capacity(),
    });
    this.#settings = this.#executionSettings();
    const wake = this.#driver.wake;
    if (wake !== undefined) {
      this.#cleanups.push(
        wake.subscribe((queue) => {
          for (const pool of this.#pools) if (pool.queue === queue) pool.notify();
        }),
      );
    }
    if (this.#options.handleSignals ?? true) this.#handleSignals();
    this.#startHousekeeping();
    this.#logger.log('info', 'jobs.worker.started', {
      workerId: this.id,
      driver: this.#driver.name,
      queues: this.#pools.map((pool) => `${pool.queue}:${pool.capacity}`),
    });
    this.#loops = this.#pools.map((pool) => this.#loop(pool));
  }

  stop(): Promise<void> {
    return this.#shutdown();
  }

  drain(): Promise<void> {
    const reason = coreError(
      'X_DRAINING',
      `worker ${this.id} is shutting down; the job is handed back uncounted.`,
      {
        workerId: this.id,
      },
    );
    if (this.#drainReason === undefined) {
      this.#drainReason = reason;
      for (const held of this.#held.values()) held.execution.interrupt(reason);
    }
    const closing = this.#shutdown();
    const deadline = setTimeout(() => {
      if (this.#held.size > 0) {
        this.#logger.log('error', 'jobs.worker.drain-abandoned', {
          workerId: this.id,
          jobs: [...this.#held.values()].map((held) => held.execution.job.id),
        });
        this.#abandoned = true;
        for (const held of this.#held.values()) held.execution.abandon();
      }
      this.#abandon?.();
    }, this.#options.drainTimeoutMs ?? 10_000);
    deadline.unref?.();
    return closing.finally(() => clearTimeout(deadline));
  }

  async runDue(): Promise<number> {
    this.#assertEnforceable();
    const queues = this.#pools.map((pool) => pool.queue);
    const limit = Math.max(1, this.#capacity());
    let ran = 0;
    for (;;) {
      const jobs = await this.#driver.claim({
        queues,
        limit,
        workerId: this.id,
        visibilityTimeoutMs: this.#visibilityTimeoutMs,
      });
      if (jobs.length === 0) return ran;
      ran += jobs.length;
      await Promise.all(jobs.map((job) => this.#run(undefined, job)));
    }
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

  async #loop(pool: QueuePool): Promise<void> {
    let idleWait = FIRST_IDLE_WAIT_MS;
    // The buffer grows while claims come back full (a deep queue: bigger batches, fewer round
    // trips) and falls back to `prefetch` as soon as one comes back short or a buffered job goes
    // stale (long jobs: hand work back to other workers rather than hoard it).
    let extra = pool.prefetch;
    // The default buffer may grow to MAX_PREFETCH_BOOST; one the app sized grows to 16× its size.
    const maxExtra =
      pool.prefetch === 0
        ? 0
        : this.#options.prefetch === undefined
          ? Math.max(pool.prefetch, MAX_PREFETCH_BOOST)
          : Math.max(pool.prefetch, Math.min(MAX_PREFETCH_BOOST, pool.prefetch * 16));
    while (this.#state === 'running') {
      if (this.#startBuffered(pool) > 0) extra = pool.prefetch;
      const boostedRefill = extra > pool.prefetch && pool.buffered <= extra / 2;
      if (pool.inFlight + pool.buffered >= pool.capacity && !boostedRefill) {
        // Every slot is running or has a buffered job waiting for it: claim nothing more until one
        // frees. (So a buffered job handed back for waiting too long is not claimed straight back.)
        // While jobs wait in the buffer, look again in time to hand back any that would otherwise
        // wait out their lease.
        await pool.changed(
          pool.buffered > 0 ? Math.min(this.#idlePollMaxMs, this.#staleBufferMs()) : this.#idlePollMaxMs,
        );
        continue;
      }
      // Claim for the free slots plus the prefetch buffer in one batch.
      const want = pool.capacity + extra - pool.inFlight - pool.buffered;
      const busy = pool.inFlight > 0 || pool.buffered > 0;
      pool.clearNotified();
      let jobs: readonly ClaimedJob[];
      try {
        jobs = await this.#driver.claim({
          queues: [pool.queue],
          limit: want,
          workerId: this.id,
          visibilityTimeoutMs: this.#visibilityTimeoutMs,
        });
      } catch (error) {
        this.#logger.log('warn', 'jobs.claim.failed', {
          workerId: this.id,
          queue: pool.queue,
          code: errorCode(error) ?? null,
        });
        idleWait = Math.min(idleWait * 2, this.#idlePollMaxMs);
        await pool.changed(idleWait);
        continue;
      }
      if (this.#state !== 'running') {
        // Stopped while the claim was in flight: hand its rows back uncounted rather than start them.
        await Promise.all(jobs.map((job) => this.#handBack(job)));
        break;
      }
      pool.hold(jobs);
      this.#startBuffered(pool);
      if (jobs.length >= want) {
        idleWait = FIRST_IDLE_WAIT_MS;
        extra = Math.min(maxExtra, extra * 2);
        continue;
      }
      extra = pool.prefetch;
      // The queue ran dry: sleep until a slot frees, a wake arrives, or the idle wait passes — and
      // no longer than a buffered job may wait, so one that would go stale is handed back in time.
      if (jobs.length > 0) idleWait = FIRST_IDLE_WAIT_MS;
      const wait = busy || jobs.length > 0 ? this.#idlePollMaxMs : idleWait;
      await pool.changed(pool.buffered > 0 ? Math.min(wait, this.#staleBufferMs()) : wait);
      if (jobs.length === 0 && !busy) idleWait = Math.min(idleWait * 2, this.#idlePollMaxMs);
    }
    await Promise.all(pool.takeAllBuffered().map((job) => this.#handBack(job)));
  }

  /**
   * Starts buffered jobs while the pool has free slots. A job that waited in the buffer past a third
   * of its lease is handed back (uncounted) instead, so prefetching never lets a lease lapse.
   * Answers how many were handed back.
   */
  #startBuffered(pool: QueuePool): number {
    const stale = pool.takeStale(this.#staleBufferMs());
    for (const job of stale) void this.#handBack(job);
    while (pool.inFlight < pool.capacity) {
      const job = pool.next();
      if (job === undefined) break;
      void this.#run(pool, job);
    }
    return stale.length;
  }

  #run(pool: QueuePool | undefined, job: ClaimedJob): Promise<void> {
    const admission = this.#limiter.admit(job.queue, job.tenantId, this.#driver.now());
    if (!admission.admitted) {
      this.#count('deferred');
      this.#logger.log('debug', 'jobs.limit.deferred', { jobId: job.id, cap: admission.cap });
      return this.#handBack(job, this.#driver.now() + admission.retryInMs);
    }
    pool?.take();
    let slotFreed = false;
    // The slot (and the limit) is freed when the run's work is over, while its settle is still in
    // flight: the next job starts without waiting for the commit. `held` stays until it lands.
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      admission.release();
      pool?.give();
    };
    const execution = new Execution(this.#settings, job, freeSlot);
    if (this.#drainReason !== undefined) execution.interrupt(this.#drainReason);
    if (this.#abandoned) execution.abandon();
    const held: Held = { execution, done: Promise.resolve() };
    this.#held.set(job.claim.token, held);
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#held.size);
    const finish = (outcome: string) => {
      this.#count(outcome);
      this.#held.delete(job.claim.token);
      freeSlot();
    };
    held.done = runTraced(execution).then(
      (result) => finish(result.outcome),
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
    return held.done;
  }

  /** Releases a claimed row unstarted, its attempt uncounted (at `runAt`, else now). */
  #handBack(job: ClaimedJob, runAt?: number): Promise<void> {
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
    for (const pool of this.#pools) pool.notify();
    // Armed before anything is awaited: a drain deadline that passes while a pool is still inside a
    // claim abandons too.
    const abandoned = new Promise<void>((resolve) => {
      this.#abandon = resolve;
    });
    this.#closing = (async () => {
      const settled = (async () => {
        await Promise.all(this.#loops);
        await Promise.all([...this.#held.values()].map((held) => held.done));
      })();
      await Promise.race([settled, abandoned]);
      for (const cleanup of this.#cleanups.splice(0)) cleanup();
      this.#metrics?.close();
      if (wasRunning) {
        await this.#driver.introspect?.removeWorker(this.id).catch(() => undefined);
        this.#logger.log('info', 'jobs.worker.stopped', { workerId: this.id, counts: { ...this.#counts } });
      }
      this.#state = 'stopped';
    })();
    return this.#closing;
  }

  #handleSignals(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      this.#logger.log('info', 'jobs.worker.draining', { workerId: this.id, signal });
      void this.drain();
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    this.#cleanups.push(() => {
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGINT', onSignal);
    });
  }

  #startHousekeeping(): void {
    const introspect = this.#driver.introspect;
    if (introspect === undefined) return;
    const queues = this.#pools.map((pool) => pool.queue);
    const report = () => {
      void introspect
        .reportWorker(
          {
            id: this.id,
            queues,
            concurrency: this.#capacity(),
            inFlight: this.#held.size,
            host: hostname(),
            pid: process.pid,
            startedAt: this.#startedAt,
            lastSeenAt: Date.now(),
          },
          REPORT_TTL_MS,
        )
        .catch((error: unknown) =>
          this.#logger.log('debug', 'jobs.worker.report-failed', {
            workerId: this.id,
            code: errorCode(error) ?? null,
          }),
        );
    };
    report();
    const reporter = setInterval(report, REPORT_EVERY_MS);
    reporter.unref?.();
    this.#cleanups.push(() => clearInterval(reporter));

    const retention = this.#options.doneRetentionMs ?? this.#driver.doneRetentionMs ?? WEEK_MS;
    if (retention > 0) {
      const purge = () => {
        void introspect
          .purge({ doneBefore: this.#driver.now() - retention })
          .then((removed) => {
            if (removed > 0) this.#logger.log('info', 'jobs.purge.done', { removed });
          })
          .catch((error: unknown) =>
            this.#logger.log('warn', 'jobs.purge.failed', { code: errorCode(error) ?? null }),
          );
      };
      const purger = setInterval(purge, PURGE_EVERY_MS);
      purger.unref?.();
      this.#cleanups.push(() => clearInterval(purger));
    }
  }

  #assertEnforceable(): void {
    if (this.#driver.leases !== undefined) return;
    const jobs = this.#registeredJobs()
      .filter((handle) => definitionOf(handle).concurrency !== undefined)
      .map((handle) => handle.name);
    if (jobs.length > 0) {
      throw coreError(
        'X_JOB_CONCURRENCY_UNENFORCEABLE',
        `Jobs ${jobs.join(', ')} declare concurrency, but driver '${this.#driver.name}' has no lease store to hold the cap across workers.`,
        { jobs },
      );
    }
  }

  #buildPools(): QueuePool[] {
    const queues = this.#options.queues;
    const concurrency = positive(this.#options.concurrency, 10, 'concurrency');
    if (queues !== undefined && !Array.isArray(queues)) {
      return Object.entries(queues as Readonly<Record<string, number>>).map(([queue, size]) => {
        const capacity = positive(size, 1, `queues.${queue}`);
        return new QueuePool(queue, capacity, this.#prefetch(capacity));
      });
    }
    const names = (queues as readonly string[] | undefined) ?? [
      ...new Set(this.#registeredJobs().map((handle) => handle.queue)),
    ];
    if (names.length === 0) {
      throw coreError(
        'X_WORKER_OPTIONS_INVALID',
        'createWorker: no queues to claim from; register jobs with defineJobs or pass queues.',
        { field: 'queues' },
      );
    }
    return names.map((queue) => new QueuePool(queue, concurrency, this.#prefetch(concurrency)));
  }

  /**
   * How long a claimed job may wait in a pool's buffer: a third of its lease, and at most 2 s, so a
   * worker busy with long jobs hands prefetched work back to idle workers quickly.
   */
  #staleBufferMs(): number {
    return Math.min(this.#visibilityTimeoutMs / 3, 2_000);
  }

  /** The buffer a pool of `capacity` keeps: the option, else the pool size capped at 50. */
  #prefetch(capacity: number): number {
    const prefetch = this.#options.prefetch;
    if (prefetch === undefined) return Math.min(2 * capacity, 100);
    if (!Number.isInteger(prefetch) || prefetch < 0) {
      throw coreError(
        'X_WORKER_OPTIONS_INVALID',
        `createWorker: prefetch must be a whole number ≥ 0 (got ${String(prefetch)}).`,
        {
          field: 'prefetch',
        },
      );
    }
    return prefetch;
  }

  #registeredJobs(): readonly AnyJobHandle[] {
    const registry = this.#registry as Partial<{ jobs(): readonly AnyJobHandle[] }>;
    return typeof registry.jobs === 'function' ? registry.jobs() : [];
  }

  #capacity(): number {
    return this.#pools.reduce((sum, pool) => sum + pool.capacity, 0);
  }

  #count(outcome: string): void {
    this.#counts[outcome] = (this.#counts[outcome] ?? 0) + 1;
  }
}

function positive(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw coreError(
      'X_WORKER_OPTIONS_INVALID',
      `createWorker: ${field} must be a positive number (got ${String(value)}).`,
      {
        field,
      },
    );
  }
  return value;
}
