import type { HandleSource } from '../attempt/execute-job.js';
import type { JobDriver } from '../driver/job-driver.js';
import type { JobContext } from '../job/job-context.js';
import type { JobRegistry } from '../registry/job-registry.js';
import type { ExecutionObserver } from '../steps/execution-observer.js';
import type { JobsLogger } from '../telemetry/logger.js';
import type { LimitConfig } from './limit-config.js';
import type { WorkerHealth } from './worker-health.js';

/** Options of {@link createWorker}. `driver` and `context` are required; everything else defaults. */
export interface WorkerOptions {
  /** The backend to claim from. */
  readonly driver: JobDriver;
  /**
   * Builds the app's `ctx` for each run (services, a db handle). Required: a worker with no way to
   * build one would run every body with nothing.
   */
  readonly context: () => JobContext | Promise<JobContext>;
  /** The jobs this worker runs. (Default: the process registry that `defineJobs` fills) */
  readonly registry?: JobRegistry | HandleSource;
  /**
   * Which queues to claim from: a list (each gets a pool of `concurrency` slots) or a map of
   * queue → its pool size. (Default: every queue of the registered jobs)
   */
  readonly queues?: readonly string[] | Readonly<Record<string, number>>;
  /** Slots per queue pool when `queues` is a list. (Default: 10) */
  readonly concurrency?: number;
  /**
   * Claimed jobs each pool keeps waiting beyond its running ones, so claims come in batches and a
   * freed slot starts the next job without a round trip. A buffered job not started within a third
   * of its lease (at most 2 s) is handed back uncounted; so are buffered jobs at stop. 0 turns it
   * off. While claims keep coming back full (a deep queue) the buffer doubles per claim — up to 500
   * with the default, up to 16× an explicit value (at most 500) — and falls back to it when a claim
   * comes back short or a buffered job goes stale. (Default: twice the pool size, at most 100)
   */
  readonly prefetch?: number;
  /** Per-process caps. (Default: none) */
  readonly limits?: LimitConfig;
  /** How long a claim stays invisible to other workers without a heartbeat. (Default: 30_000) */
  readonly visibilityTimeoutMs?: number;
  /** How often each held job's lease is renewed. (Default: a third of `visibilityTimeoutMs`) */
  readonly heartbeatIntervalMs?: number;
  /**
   * The longest an idle pool waits between claims. With a driver wake the wait ends as soon as work
   * arrives, and a row the pool put back with a run time (a rate-limit or fleet-slot deferral, a
   * process-limit hand-back) ends it when that time comes, so this is only the safety net.
   * (Default: 2_000; 5_000 when the driver has a wake)
   */
  readonly idlePollMaxMs?: number;
  /**
   * How long a claim loop may go without coming round before `worker.health()` says the worker is
   * not live ("up but not consuming"). A loop comes round at least every `idlePollMaxMs` while it
   * works, so only a claim stuck in a call that never returns, or a dead loop, crosses it.
   * (Default: 3 × `idlePollMaxMs` + 15_000: 30 s with a driver wake, 21 s without)
   */
  readonly healthStallMs?: number;
  /** How long a drain waits for interrupted bodies before abandoning them. (Default: 10_000) */
  readonly drainTimeoutMs?: number;
  /** Drain on SIGTERM/SIGINT. (Default: true) */
  readonly handleSignals?: boolean;
  /** Structured logs. (Default: JSON lines on stderr, info and above) */
  readonly logger?: JobsLogger;
  /** This worker's id in claims and `x-jobs workers`. (Default: `<host>:<pid>:<random>`) */
  readonly workerId?: string;
  /**
   * The `worker` attribute of `job_worker_in_flight` / `job_worker_capacity`: keep it stable so a
   * restarted worker continues the same series. (Default: `workerId` when given, else the host name)
   */
  readonly workerName?: string;
  /**
   * Done rows older than this are purged by this worker about once an hour; 0 turns it off.
   * (Default: the driver's `doneRetentionMs`, else 7 days)
   */
  readonly doneRetentionMs?: number;
  /** Hooks into each execution (the test harness's step trace). (Default: none) */
  readonly observer?: ExecutionObserver;
  /**
   * Await every attempt's `start` before its body, the first attempt of a fresh claim's too. By
   * default that one body runs while its start is in flight (bodies from the buffer then need no
   * round trip each: about twice the Postgres drain), and a body that kills its process before its
   * start lands is not counted once, so a body that kills its process every time runs at most
   * `attempts + 1` times. With `true` it dies after exactly `attempts` starts. (Default: false)
   */
  readonly awaitEveryStart?: boolean;
}

/** What {@link Worker.stats} answers. */
export interface WorkerStats {
  /** Jobs running now. */
  readonly inFlight: number;
  /** The most this worker ever ran at once. */
  readonly maxInFlight: number;
  /** Slots across pools. */
  readonly capacity: number;
  /** Executions by how they ended. */
  readonly counts: Readonly<Record<string, number>>;
  readonly state: 'idle' | 'running' | 'draining' | 'stopped';
}

/** A running worker. */
export interface Worker {
  readonly id: string;
  /**
   * Starts claiming. Refuses `X_JOB_CONCURRENCY_UNENFORCEABLE` (naming every such job) when a
   * registered job declares `concurrency` and the driver has no lease store, and
   * `X_JOB_RATE_LIMIT_UNENFORCEABLE` when one declares `rateLimit` and it has no rate-limit store.
   */
  start(): Promise<void>;
  /**
   * Resolves once the worker has stopped — after `stop()`, `drain()`, or the drain a SIGTERM/SIGINT
   * started (`handleSignals`) — with every held row settled or handed back and its own timers,
   * wake subscription and signal listeners gone. It never rejects. What the worker leaves open is
   * what the app opened (the driver, its own servers): close them after it, and nothing keeps the
   * process alive, so it exits by itself (`await worker.stopped; await driver.close();`).
   */
  readonly stopped: Promise<void>;
  /** Stops claiming and waits for held work to finish (no abort). */
  stop(): Promise<void>;
  /**
   * Stops claiming, aborts every held job's `ctx.signal` with `X_DRAINING`, waits up to
   * `drainTimeoutMs`, and abandons what is still running (`jobs.worker.drain-abandoned`).
   * What SIGTERM/SIGINT call.
   */
  drain(): Promise<void>;
  /**
   * Claims and runs every job due now, to completion, until none is left (no timers, no wake):
   * how a test harness drives the real worker deterministically. Answers how many ran.
   */
  runDue(): Promise<number>;
  stats(): WorkerStats;
  /**
   * Liveness and readiness, computed now from what the worker saw: `live` false when a claim loop
   * has not come round for `healthStallMs` (default 30 s with a driver wake); `ready` false while
   * claims fail (the backend down or misconfigured; detected by the next claim, at most
   * `idlePollMaxMs` plus the driver's connect timeout later), while a lease renewal failed within
   * the last lease window, before the first claim lands, and once draining. Serve it to probes
   * with `healthHandler(worker)`.
   */
  health(): WorkerHealth;
}
