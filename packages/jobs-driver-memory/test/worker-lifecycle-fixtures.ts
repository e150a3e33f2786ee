import { createWorker, type JobDriver, job, recordingLogger, setJobDriver, type Worker } from '@x/jobs-core';
import { afterEach } from 'vitest';
import { z } from 'zod';
import { memoryJobDriver } from '../src/memory-job-driver.js';

/**
 * What the worker-lifecycle integration tests share (`src/testing/worker-*.test.ts`): workers
 * stopped after each test, a stubborn job, a driver whose heartbeats fail until healed, `until`,
 * and a worker over a registry of the given jobs.
 */
export const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

export function unique(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2)}`;
}

/** Installs `driver` as the ambient one (where `handle.enqueue` publishes) and answers it. */
export function installed<Driver extends JobDriver>(driver: Driver): Driver {
  setJobDriver(driver);
  return driver;
}

/** A job whose body ignores its signal and never settles; `started()` says whether it began. */
export function stubbornJob(prefix: string) {
  let started = false;
  const handle = job({
    name: unique(prefix),
    queue: unique('q'),
    input: z.object({}),
    idempotencyKey: () => prefix,
    tenant: 'none',
    run: () => {
      started = true;
      return new Promise(() => undefined);
    },
  });
  return { handle, started: () => started };
}

/** An installed memory driver whose heartbeats fail (`X_DRIVER_UNAVAILABLE`) until `heal()`. */
export function failingHeartbeats() {
  const base = memoryJobDriver();
  let failing = true;
  const driver = installed<JobDriver>({
    ...base,
    heartbeat: async (...args) => {
      if (failing) throw Object.assign(new Error('db down'), { code: 'X_DRIVER_UNAVAILABLE' });
      return base.heartbeat(...args);
    },
  });
  const heal = () => {
    failing = false;
  };
  return { base, driver, heal };
}

export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function start(driver: JobDriver, jobs: { name: string; queue: string }[], extra: object = {}) {
  const logger = recordingLogger();
  const registry = new Map(jobs.map((handle) => [handle.name, handle]));
  const worker = createWorker({
    driver,
    context: () => ({}),
    registry: { get: (name) => registry.get(name) },
    queues: [...new Set(jobs.map((handle) => handle.queue))],
    handleSignals: false,
    logger,
    ...extra,
  });
  workers.push(worker);
  return { worker, logger };
}

export async function enqueue(handle: { enqueue(input: object): Promise<{ id: string }> }, input: object) {
  return (await handle.enqueue(input)).id;
}
