import { cancelJob, type JobDriver, job, setJobDriver } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  enqueue,
  failingHeartbeats,
  installed,
  start,
  unique,
  until,
} from '../../test/worker-lifecycle-fixtures.js';
import { memoryJobDriver } from '../memory-job-driver.js';

describe('timeouts', () => {
  it('aborts ctx.signal before the attempt is failed, and refuses step writes past the abort', async () => {
    const driver = installed(memoryJobDriver());
    const observed: string[] = [];
    let lateWrite: unknown;
    let id = '';
    const slow = job({
      name: unique('slow'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'slow',
      tenant: 'none',
      timeout: 50,
      retry: { attempts: 3, delay: 60_000 },
      async run({ step, ctx }) {
        await new Promise<void>((resolve) =>
          ctx.signal.addEventListener('abort', async () => {
            const row = await driver.introspect!.get(id);
            observed.push(`aborted while ${row?.state}`);
            resolve();
          }),
        );
        try {
          await step.run('after-abort', () => 1);
        } catch (error) {
          lateWrite = error;
        }
      },
    });
    id = await enqueue(slow, {});
    const { worker, logger } = start(driver, [slow]);
    await worker.start();
    await until(async () => (await driver.introspect!.get(id))?.state === 'delayed');
    expect(observed).toEqual(['aborted while running']);
    const row = await driver.introspect!.get(id);
    expect(row?.lastError?.code).toBe('X_JOB_TIMEOUT');
    expect(row?.attempts).toBe(1);
    await until(() => lateWrite !== undefined);
    expect((lateWrite as { code?: string }).code).toBe('X_ABORTED');
    await until(() => logger.events.some((event) => event.event === 'jobs.timeout.abandoned'));
  });
});

describe('cancel and leases', () => {
  it('stops a cancelled running job at its next heartbeat; its late settle changes nothing', async () => {
    const driver = installed(memoryJobDriver());
    let aborted: unknown;
    const settled: string[] = [];
    const long = job({
      name: unique('long'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'long',
      tenant: 'none',
      async run({ ctx }) {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        aborted = ctx.signal.reason;
        return 'finished anyway';
      },
      onSettled: (s) => void settled.push(s.outcome),
    });
    const id = await enqueue(long, {});
    const { worker } = start(driver, [long], { visibilityTimeoutMs: 300, heartbeatIntervalMs: 20 });
    await worker.start();
    await until(async () => (await driver.introspect!.get(id))?.state === 'running');
    await cancelJob(driver, id, 'operator said so');
    await until(() => aborted !== undefined);
    expect((aborted as { code?: string }).code).toBe('X_JOB_LEASE_LOST');
    await until(() => settled.length > 0);
    expect(settled).toEqual(['cancelled']);
    const row = await driver.introspect!.get(id);
    expect(row?.state).toBe('cancelled');
    expect(row?.cancelReason).toBe('operator said so');
    await expect(cancelJob(driver, id)).rejects.toMatchObject({ code: 'X_JOB_NOT_CANCELLABLE' });
    await expect(cancelJob(driver, 'no-such-id')).rejects.toMatchObject({ code: 'X_JOB_NOT_FOUND' });
  });

  it('logs jobs.heartbeat.failed, then jobs.lease.lost once a whole window passes, and never for a finished job', async () => {
    const { driver, heal } = failingHeartbeats();
    const releases: (() => void)[] = [];
    let healed = false;
    const held = job({
      name: unique('held'),
      queue: unique('q'),
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `held-${n}`,
      tenant: 'none',
      // The lapsed lease gets n=1 redelivered to this same worker: every run of it before the heal
      // waits to be released; runs after it finish at once.
      run: ({ input }) =>
        input.n === 1 && !healed ? new Promise<void>((resolve) => releases.push(resolve)) : undefined,
    });
    const first = await enqueue(held, { n: 1 });
    const { worker, logger } = start(driver, [held], { visibilityTimeoutMs: 120, heartbeatIntervalMs: 30 });
    await worker.start();
    await until(() => logger.events.some((event) => event.event === 'jobs.lease.lost'));
    const names = logger.events.map((event) => event.event);
    expect(names.indexOf('jobs.heartbeat.failed')).toBeLessThan(names.indexOf('jobs.lease.lost'));
    expect(names.filter((name) => name === 'jobs.lease.lost')).toHaveLength(1);

    // Heal, let every run of n=1 end, and let any window already open close.
    healed = true;
    heal();
    for (const release of releases) release();
    // The redelivery this worker handed back (its own run was still held) is due a second later,
    // and a delayed row sends no wake: the pool may pick it up only at its idle poll (up to 5 s).
    await until(async () => (await driver.introspect!.get(first))?.state === 'done', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));

    // A job that finishes quickly never reports a lost lease, even with slow heartbeats in flight.
    const before = logger.events.filter((event) => event.event === 'jobs.lease.lost').length;
    const id = await enqueue(held, { n: 2 });
    await until(async () => (await driver.introspect!.get(id))?.state === 'done');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logger.events.filter((event) => event.event === 'jobs.lease.lost')).toHaveLength(before);
    for (const release of releases) release();
  }, 60_000);
});

describe('a worker that reclaims its own lapsed job', () => {
  it('keeps holding the new run when the stale run of the same job ends: drain still reaches it', async () => {
    const { base, driver, heal } = failingHeartbeats();
    const reasons: unknown[] = [];
    let attempts = 0;
    const longRun = job({
      name: unique('long-run'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'long-run',
      tenant: 'none',
      retry: { attempts: 5 },
      async run({ ctx }) {
        attempts += 1;
        if (attempts >= 2) heal(); // the blip ends once the row is redelivered
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        reasons.push((ctx.signal.reason as { code?: string }).code);
        throw new Error('stopped');
      },
    });
    const id = await enqueue(longRun, {});
    const { worker } = start(driver, [longRun], {
      visibilityTimeoutMs: 100,
      heartbeatIntervalMs: 20,
      idlePollMaxMs: 20,
    });
    await worker.start();
    // The blip outlasts the lease: the same worker claims the row again while the first run still holds on.
    await until(() => attempts === 2);
    await until(() => reasons.length === 1); // the stale run learns it lost the row
    expect(reasons).toEqual(['X_JOB_LEASE_LOST']);
    await until(() => (worker.stats().counts['lease-lost'] ?? 0) === 1);
    expect(worker.stats().inFlight).toBe(1);

    await worker.drain();
    expect(reasons).toEqual(['X_JOB_LEASE_LOST', 'X_DRAINING']);
    const row = await base.introspect!.get(id);
    expect(row?.state).toBe('ready');
    expect(row?.attempts).toBe(1); // the drained attempt is uncounted; the lapsed one stays counted
  });
});

describe('heartbeats after the settle', () => {
  it('stops renewing once the row is settled: a slow onSettled never reports a failed or lost lease', async () => {
    const base = memoryJobDriver();
    let heartbeatsAfterAck = 0;
    let acked = false;
    const driver: JobDriver = {
      ...base,
      ack: async (...args) => {
        const landed = await base.ack(...args);
        acked = true;
        return landed;
      },
      heartbeat: async (...args) => {
        if (!acked) return base.heartbeat(...args);
        heartbeatsAfterAck += 1;
        throw Object.assign(new Error('db down'), { code: 'X_DRIVER_UNAVAILABLE' });
      },
    };
    setJobDriver(driver);
    let hooked = false;
    const quick = job({
      name: unique('quick'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'quick',
      tenant: 'none',
      run: () => 'ok',
      onSettled: async () => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        hooked = true;
      },
    });
    const id = await enqueue(quick, {});
    const { worker, logger } = start(driver, [quick], { visibilityTimeoutMs: 120, heartbeatIntervalMs: 20 });
    await worker.start();
    await until(() => hooked);
    expect((await base.introspect!.get(id))?.state).toBe('done');
    const names = logger.events.map((event) => event.event);
    expect(names).not.toContain('jobs.heartbeat.failed');
    expect(names).not.toContain('jobs.lease.lost');
    expect(heartbeatsAfterAck).toBe(0);
  });
});
