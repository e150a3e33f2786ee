import type { ExecutionSettings } from '../attempt/execute-job.js';
import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';
import { definitionOf } from '../job/definition-of.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import type { JobMetrics } from '../telemetry/job-metrics.js';
import type { JobsLogger } from '../telemetry/logger.js';
import { QueuePool } from './queue-pool.js';
import type { WorkerOptions, WorkerStats } from './worker-options.js';

/** A positive option, or `fallback` when absent; anything else is `X_WORKER_OPTIONS_INVALID`. */
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

/**
 * Checks the options `createWorker` cannot run without (a driver, a `context` function, positive
 * timings, a heartbeat shorter than the lease) and answers the timings the worker uses: the
 * lease (`visibilityTimeoutMs`, 30 s by default) and the longest idle poll (`idlePollMaxMs`,
 * 5 s with a driver wake, 2 s without). Anything else is `X_WORKER_OPTIONS_INVALID`.
 */
export function checkedWorkerOptions(options: WorkerOptions): {
  readonly visibilityTimeoutMs: number;
  readonly idlePollMaxMs: number;
  readonly healthStallMs: number | undefined;
} {
  if (options.driver === undefined || options.driver === null) {
    throw coreError('X_WORKER_OPTIONS_INVALID', 'createWorker: driver is required.', { field: 'driver' });
  }
  if (typeof options.context !== 'function') {
    throw coreError(
      'X_WORKER_OPTIONS_INVALID',
      'createWorker: context must be a function building the ctx of a run.',
      { field: 'context' },
    );
  }
  const visibilityTimeoutMs = positive(options.visibilityTimeoutMs, 30_000, 'visibilityTimeoutMs');
  const heartbeat = positive(options.heartbeatIntervalMs, 1, 'heartbeatIntervalMs');
  if (options.heartbeatIntervalMs !== undefined && heartbeat >= visibilityTimeoutMs) {
    throw coreError(
      'X_WORKER_OPTIONS_INVALID',
      `createWorker: heartbeatIntervalMs (${heartbeat}) must be shorter than visibilityTimeoutMs (${visibilityTimeoutMs}), or every lease lapses between renewals.`,
      { field: 'heartbeatIntervalMs' },
    );
  }
  positive(options.drainTimeoutMs, 1, 'drainTimeoutMs');
  const idlePollMaxMs = positive(
    options.idlePollMaxMs,
    options.driver.wake === undefined ? 2_000 : 5_000,
    'idlePollMaxMs',
  );
  const healthStallMs =
    options.healthStallMs === undefined ? undefined : positive(options.healthStallMs, 1, 'healthStallMs');
  return { visibilityTimeoutMs, idlePollMaxMs, healthStallMs };
}

/** The jobs a registry lists (a `JobRegistry`; a bare `{ get }` lists none). */
export function registeredJobs(registry: unknown): readonly AnyJobHandle[] {
  const listing = registry as Partial<{ jobs(): readonly AnyJobHandle[] }>;
  return typeof listing.jobs === 'function' ? listing.jobs() : [];
}

/**
 * The buffer a pool of `capacity` keeps: the `prefetch` option, else twice the pool size, at most
 * 100. A negative or fractional option is `X_WORKER_OPTIONS_INVALID`.
 */
export function prefetchOf(options: WorkerOptions, capacity: number): number {
  const prefetch = options.prefetch;
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

/** One pool per queue: sized per queue (`queues` as a record), else `concurrency` each. */
export function buildPools(options: WorkerOptions, registry: unknown): QueuePool[] {
  const queues = options.queues;
  const concurrency = positive(options.concurrency, 10, 'concurrency');
  if (queues !== undefined && !Array.isArray(queues)) {
    return Object.entries(queues as Readonly<Record<string, number>>).map(([queue, size]) => {
      const capacity = positive(size, 1, `queues.${queue}`);
      return new QueuePool(queue, capacity, prefetchOf(options, capacity));
    });
  }
  const names = (queues as readonly string[] | undefined) ?? [
    ...new Set(registeredJobs(registry).map((handle) => handle.queue)),
  ];
  if (names.length === 0) {
    throw coreError(
      'X_WORKER_OPTIONS_INVALID',
      'createWorker: no queues to claim from; register jobs with defineJobs or pass queues.',
      { field: 'queues' },
    );
  }
  return names.map((queue) => new QueuePool(queue, concurrency, prefetchOf(options, concurrency)));
}

/**
 * `start()`'s refusals, in order: a worker started before (`X_WORKER_OPTIONS_INVALID`), a job its
 * driver cannot enforce ({@link assertEnforceable}), a `start()` still opening the driver.
 */
export function assertStartable(
  workerId: string,
  state: WorkerStats['state'],
  opening: boolean,
  driver: JobDriver,
  registry: unknown,
): void {
  if (state !== 'idle') {
    throw coreError('X_WORKER_OPTIONS_INVALID', `worker ${workerId} was already started.`, {
      field: 'start',
    });
  }
  assertEnforceable(driver, registry);
  if (opening) {
    throw coreError('X_WORKER_OPTIONS_INVALID', `worker ${workerId} is already starting.`, {
      field: 'start',
    });
  }
}

/**
 * Refuses registered jobs the driver cannot hold to their declaration: `concurrency` without
 * `driver.leases` (`X_JOB_CONCURRENCY_UNENFORCEABLE`), `rateLimit` without `driver.rateLimits`
 * (`X_JOB_RATE_LIMIT_UNENFORCEABLE`); each error names every such job.
 */
export function assertEnforceable(driver: JobDriver, registry: unknown): void {
  if (driver.rateLimits === undefined) {
    const limited = registeredJobs(registry)
      .filter((handle) => definitionOf(handle).rateLimit !== undefined)
      .map((handle) => handle.name);
    if (limited.length > 0) {
      throw coreError(
        'X_JOB_RATE_LIMIT_UNENFORCEABLE',
        `Jobs ${limited.join(', ')} declare rateLimit, but driver '${driver.name}' has no rate-limit store to hold it across workers.`,
        { jobs: limited },
      );
    }
  }
  if (driver.leases !== undefined) return;
  const jobs = registeredJobs(registry)
    .filter((handle) => definitionOf(handle).concurrency !== undefined)
    .map((handle) => handle.name);
  if (jobs.length > 0) {
    throw coreError(
      'X_JOB_CONCURRENCY_UNENFORCEABLE',
      `Jobs ${jobs.join(', ')} declare concurrency, but driver '${driver.name}' has no lease store to hold the cap across workers.`,
      { jobs },
    );
  }
}

/** What every execution of one worker shares, from its options and what the worker resolved. */
export function executionSettingsOf(
  options: WorkerOptions,
  resolved: {
    readonly driver: JobDriver;
    readonly registry: ExecutionSettings['registry'];
    readonly visibilityTimeoutMs: number;
    readonly logger: JobsLogger;
    readonly metrics: JobMetrics | undefined;
  },
): ExecutionSettings {
  return {
    driver: resolved.driver,
    registry: resolved.registry,
    context: options.context,
    visibilityTimeoutMs: resolved.visibilityTimeoutMs,
    ...(options.heartbeatIntervalMs === undefined
      ? {}
      : { heartbeatIntervalMs: options.heartbeatIntervalMs }),
    logger: resolved.logger,
    ...(resolved.metrics === undefined ? {} : { metrics: resolved.metrics }),
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    ...(options.awaitEveryStart === true ? { awaitEveryStart: true } : {}),
  };
}
