import { createWorker, defineJobs, type JobDriver, jsonLinesLogger, setJobDriver } from '@x/jobs-core';
import type { QueueOptionsMap } from '@x/jobs-core/driver';
import type { Backend, BenchSystem, StartWorkerOptions } from '../system.js';
import * as benchJobs from './x-bench-jobs.js';
import { benchNoop, routeBenchJobs } from './x-bench-jobs.js';
import { xFairProbe } from './x-fair-probe.js';
import { xStepProbe } from './x-step-probe.js';
import { xStepRunner } from './x-step-runner.js';

/** What one of our backends supplies to {@link xSystem}. */
export interface XBackend {
  readonly name: string;
  readonly backend: Backend;
  readonly versions: Readonly<Record<string, string>>;
  /** The Postgres database it keeps its jobs in (see {@link BenchSystem.database}). */
  readonly database?: string;
  /** Its hot tables (see {@link BenchSystem.hotTables}). */
  readonly hotTables?: readonly string[];
  /** Opens a driver on the bench storage (connect, migrate), with per-queue settings when given. */
  open(queues?: QueueOptionsMap): Promise<JobDriver>;
  /** Empties the storage; answers the driver to use from now on (the memory driver is replaced). */
  reset(driver: JobDriver): Promise<JobDriver>;
  /** Releases what the backend opened besides the driver (admin connections). */
  close?(): Promise<void>;
}

const LIVE_STATES = ['ready', 'delayed', 'running', 'suspended'] as const;

/**
 * Extra `createWorker` options for tuning experiments, as JSON (`BENCH_X_WORKER='{"prefetch":500}'`).
 * Unset in every run RESULTS.md shows: ours are measured with their defaults.
 */
function experimentOptions(): Record<string, unknown> {
  const raw = process.env.BENCH_X_WORKER;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

/**
 * Our system through its public API only: `job()` + `defineJobs`, `handle.enqueueMany` /
 * `handle.enqueue` through the ambient driver, and `createWorker`. One driver per process, shared
 * by enqueues and the worker, as an app would run it.
 */
export function xSystem(backend: XBackend): BenchSystem {
  let current: JobDriver | null = null;
  const driver = (): JobDriver => {
    if (!current) throw new Error(`${backend.name}: setup() first`);
    return current;
  };
  const install = (next: JobDriver): void => {
    current = next;
    setJobDriver(next);
  };

  const system: BenchSystem = {
    name: backend.name,
    backend: backend.backend,
    versions: backend.versions,
    ...(backend.database === undefined ? {} : { database: backend.database }),
    ...(backend.hotTables === undefined ? {} : { hotTables: backend.hotTables }),
    async setup() {
      defineJobs({ jobs: [benchJobs] });
      install(await backend.open());
    },
    async reset() {
      install(await backend.reset(driver()));
    },
    async enqueueBulk(payloads) {
      for (let start = 0; start < payloads.length; start += 10_000) {
        await benchNoop.enqueueMany(payloads.slice(start, start + 10_000));
      }
    },
    async enqueueOne(payload) {
      await benchNoop.enqueue(payload);
    },
    async startWorker({ concurrency, onJob, leaseMs }: StartWorkerOptions) {
      routeBenchJobs(onJob);
      const worker = createWorker({
        driver: driver(),
        context: () => ({}),
        // The bench jobs' queue only: the fair workload's queue has its own worker (x-fair-probe).
        queues: ['default'],
        concurrency,
        handleSignals: false,
        logger: jsonLinesLogger({ minLevel: 'warn' }),
        ...(leaseMs === undefined ? {} : { visibilityTimeoutMs: leaseMs }),
        ...experimentOptions(),
      });
      await worker.start();
      return { stop: () => worker.stop() };
    },
    async pending() {
      const stats = await driver().stats();
      let pending = 0;
      for (const queue of stats) for (const state of LIVE_STATES) pending += queue.counts[state];
      return pending;
    },
    async failed() {
      const stats = await driver().stats();
      return stats.reduce((sum, queue) => sum + queue.counts.dead, 0);
    },
    async close() {
      await current?.close?.();
      await backend.close?.();
      current = null;
    },
  };
  return {
    ...system,
    stepProbe: xStepProbe(system, driver),
    stepRunner: xStepRunner(system),
    fairProbe: xFairProbe(backend, driver, install),
  };
}
