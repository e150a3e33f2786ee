import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { sleep, unavailable } from '../../test/run-one.js';
import { job } from '../declare/job.js';
import { errorCode } from '../errors/jobs-error.js';
import { recordingLogger } from '../telemetry/logger.js';
import { createWorker } from './create-worker.js';
import type { Worker } from './worker-options.js';

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

/** A body that ignores its signal until `release()`; counts how many run at once. */
function stubborn() {
  const state = { running: 0, peak: 0, starts: 0, reasons: [] as (string | undefined)[] };
  const releases: (() => void)[] = [];
  const handle = job({
    name: `stubborn-${Math.random().toString(36).slice(2)}`,
    queue: 'q',
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    async run({ ctx }) {
      state.starts += 1;
      state.running += 1;
      state.peak = Math.max(state.peak, state.running);
      ctx.signal.addEventListener('abort', () => state.reasons.push(errorCode(ctx.signal.reason)));
      await new Promise<void>((resolve) => releases.push(resolve));
      state.running -= 1;
    },
  });
  const release = () => {
    for (const resolve of releases.splice(0)) resolve();
  };
  return { handle, state, release };
}

function startWorker(fake: FakeJobDriver, handle: { name: string }, extra: object = {}) {
  const logger = recordingLogger();
  const worker = createWorker({
    driver: fake.driver,
    context: () => ({}),
    registry: { get: (name) => (name === handle.name ? handle : undefined) },
    queues: ['q'],
    handleSignals: false,
    logger,
    ...extra,
  });
  workers.push(worker);
  return { worker, logger };
}

describe('a worker never holds two attempts of one job', () => {
  it('stops the older attempt and hands back its own row when it claims it again after a lapsed lease', async () => {
    const fake = new FakeJobDriver();
    const { handle, state, release } = stubborn();
    const row = fake.add({ name: handle.name });
    fake.wrap('heartbeat', async () => {
      throw unavailable();
    });
    const { worker, logger } = startWorker(fake, handle, {
      visibilityTimeoutMs: 300,
      heartbeatIntervalMs: 50,
      idlePollMaxMs: 20,
    });
    await worker.start();
    // The lease lapses after 300 ms; the same worker's claims find the row again and again.
    await sleep(1_800);
    expect(state.starts).toBe(1);
    expect(state.peak).toBe(1);
    expect(state.reasons).toEqual(['X_JOB_LEASE_LOST']);
    expect(logger.events.some((event) => event.event === 'jobs.claim.own-run-held')).toBe(true);
    expect(fake.calls.filter((call) => call === `nack-release:${row.id}`).length).toBeGreaterThan(0);
    expect(worker.stats().inFlight).toBe(1);
    release();
  });
});

describe('drain deadline', () => {
  it('logs jobs.worker.drain-abandoned once, naming the job once, however many times drain() is called', async () => {
    const fake = new FakeJobDriver();
    const { handle, state, release } = stubborn();
    const row = fake.add({ name: handle.name });
    const { worker, logger } = startWorker(fake, handle, { drainTimeoutMs: 100, idlePollMaxMs: 20 });
    await worker.start();
    while (state.starts === 0) await sleep(5);
    await Promise.all([worker.drain(), worker.drain()]);
    await sleep(300);
    const abandoned = logger.events.filter((event) => event.event === 'jobs.worker.drain-abandoned');
    expect(abandoned).toHaveLength(1);
    expect(abandoned[0]?.fields.jobs).toEqual([row.id]);
    release();
  });
});

describe('a claim of a row whose older attempt only has its settle left', () => {
  it('runs right after that attempt, never handed back (a suspension woken at once)', async () => {
    const fake = new FakeJobDriver();
    let passes = 0;
    const handle = job({
      name: `wakes-at-once-${Math.random().toString(36).slice(2)}`,
      queue: 'q',
      input: z.object({}),
      idempotencyKey: () => 'k',
      tenant: 'none',
      async run({ step }) {
        passes += 1;
        await step.sleepUntil('tick', Date.now() + 30); // due again almost at once
        return passes;
      },
    });
    const row = fake.add({ name: handle.name });
    // Hold the first suspend's report open until the worker has claimed the row again.
    const claims = () => fake.calls.filter((call) => call === `claim:${row.id}`).length;
    fake.wrap('nack', async (next) => {
      const landed = await next();
      while (claims() < 2) await sleep(5);
      return landed;
    });
    const { worker, logger } = startWorker(fake, handle, { idlePollMaxMs: 10 });
    await worker.start();
    while (row.state !== 'done') await sleep(10);
    expect(row.result).toBe(2);
    expect(fake.calls.filter((call) => call === `nack-release:${row.id}`)).toEqual([]);
    expect(logger.events.some((event) => event.event === 'jobs.claim.own-run-held')).toBe(false);
  });

  it('holds its slot while it waits for that attempt: a pool of one never runs two bodies', async () => {
    const fake = new FakeJobDriver();
    const bodies = { running: 0, peak: 0 };
    const track = async <T>(work: () => Promise<T>): Promise<T> => {
      bodies.running += 1;
      bodies.peak = Math.max(bodies.peak, bodies.running);
      try {
        return await work();
      } finally {
        bodies.running -= 1;
      }
    };
    let passes = 0;
    const sleeper = job({
      name: `sleeper-${Math.random().toString(36).slice(2)}`,
      queue: 'q',
      input: z.object({}),
      idempotencyKey: () => 'k',
      tenant: 'none',
      run: ({ step }) =>
        track(async () => {
          passes += 1;
          await step.sleepUntil('tick', Date.now() + 30);
          return passes;
        }),
    });
    const other = job({
      name: `other-${Math.random().toString(36).slice(2)}`,
      queue: 'q',
      input: z.object({}),
      idempotencyKey: () => 'k2',
      tenant: 'none',
      run: () => track(() => sleep(150)),
    });
    const row = fake.add({ name: sleeper.name });
    const claims = () => fake.calls.filter((call) => call === `claim:${row.id}`).length;
    let held = false;
    fake.wrap('nack', async (next) => {
      const landed = await next();
      if (held) return landed;
      held = true;
      // The sleeper is claimed again while its suspend's report is in flight; then other work arrives.
      while (claims() < 2) await sleep(5);
      fake.add({ name: other.name });
      await sleep(60);
      return landed;
    });
    const { worker } = startWorker(fake, sleeper, {
      idlePollMaxMs: 10,
      concurrency: 1,
      registry: {
        get: (name: string) => (name === sleeper.name ? sleeper : name === other.name ? other : undefined),
      },
    });
    await worker.start();
    while (row.state !== 'done' || [...fake.rows.values()].some((r) => r.state !== 'done')) await sleep(10);
    expect(row.result).toBe(2);
    expect(bodies.peak, 'bodies running at once in a pool of one').toBe(1);
  });
});
