import {
  cancelJob,
  createWorker,
  executeJob,
  type JobDriver,
  job,
  setJobDriver,
  silentLogger,
} from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enqueue, installed, start, unique, until } from '../../test/worker-lifecycle-fixtures.js';
import { memoryJobDriver } from '../memory-job-driver.js';
import { createJobTestHarness } from './index.js';

describe('fleet concurrency', () => {
  it('defers a job over its cap without burning an attempt, and runs it when the slot frees', async () => {
    const driver = installed(memoryJobDriver());
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const sync = job({
      name: unique('sync'),
      queue: unique('q'),
      input: z.object({ n: z.number(), account: z.string() }),
      idempotencyKey: ({ n }) => `sync-${n}`,
      tenant: 'none',
      concurrency: { key: ({ account }) => account, limit: 1 },
      async run() {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
      },
    });
    const a = await enqueue(sync, { n: 1, account: 'acct' });
    const b = await enqueue(sync, { n: 2, account: 'acct' });
    // Two workers: the cap is fleet-wide, held in driver.leases.
    await start(driver, [sync]).worker.start();
    await start(driver, [sync]).worker.start();
    await until(() => releases.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(releases).toHaveLength(1);
    const waiting = [await driver.introspect!.get(a), await driver.introspect!.get(b)].find(
      (row) => row?.state !== 'running',
    );
    expect(waiting?.attempts).toBe(0);
    releases[0]?.();
    await until(() => releases.length === 2, 5_000);
    releases[1]?.();
    await until(async () => (await driver.introspect!.get(b))?.state === 'done');
    expect(peak).toBe(1);
  });

  it('counts a stale run (lease lapsed, body still going) against the cap: its redelivery waits for the slot', async () => {
    let running = 0;
    let peak = 0;
    let finishStale: (() => void) | undefined;
    const solo = job({
      name: unique('solo'),
      input: z.object({}),
      idempotencyKey: () => 'solo',
      tenant: 'none',
      concurrency: { limit: 1 },
      async run() {
        running += 1;
        peak = Math.max(peak, running);
        if (finishStale === undefined) await new Promise<void>((resolve) => (finishStale = resolve));
        running -= 1;
      },
    });
    const harness = createJobTestHarness({ jobs: [solo] });
    try {
      const { id } = await harness.run(solo, {});
      // A worker claims it, starts the body, then stalls: its row lease lapses, its slot (60 s) does not.
      const [stale] = await harness.driver.claim({
        queues: [solo.queue],
        limit: 1,
        workerId: 'stalled',
        visibilityTimeoutMs: 1_000,
      });
      const staleRun = executeJob({
        // The attempt starts under the claim's short lease, so it lapses on the clock as a crash's would.
        driver: { ...harness.driver, start: (jobId, claim) => harness.driver.start(jobId, claim, 1_000) },
        job: stale!,
        registry: { get: () => solo },
        context: () => ({}),
        visibilityTimeoutMs: 60_000,
        logger: silentLogger,
      });
      await until(() => finishStale !== undefined);
      harness.clock.advance('2s');

      await harness.worker.runDue(); // the redelivery finds the slot held
      expect(peak).toBe(1);
      expect((await harness.job(id))?.attempts).toBe(1); // deferred, uncounted

      finishStale?.();
      expect((await staleRun).outcome).toBe('lease-lost');
      await harness.drain();
      expect((await harness.job(id))?.state).toBe('done');
      expect(peak).toBe(1);
    } finally {
      await harness.close();
    }
  });

  it('dead-letters a run whose concurrency.key(input) is not a non-empty string with X_JOB_KEY_INVALID', async () => {
    const ran: string[] = [];
    const keyed = job({
      name: unique('keyed'),
      input: z.object({ account: z.string() }),
      idempotencyKey: ({ account }) => `k-${account}`,
      tenant: 'none',
      retry: { attempts: 3 },
      concurrency: { key: ({ account }) => account, limit: 1 },
      run: ({ input }) => void ran.push(input.account),
    });
    const harness = createJobTestHarness({ jobs: [keyed] });
    try {
      const { id } = await harness.run(keyed, { account: '' });
      await harness.drain();
      const row = await harness.job(id);
      expect(row?.state).toBe('dead');
      expect(row?.lastError?.code).toBe('X_JOB_KEY_INVALID');
      expect(row?.stopReason).toBe('terminal');
      expect(row?.attempts).toBe(1);
      expect(ran).toEqual([]);
    } finally {
      await harness.close();
    }
  });

  it('calls onSettled with cancelled when the row is cancelled while the run waits for its slot', async () => {
    const base = memoryJobDriver();
    const leases = base.leases!;
    let id = '';
    const driver: JobDriver = {
      ...base,
      leases: {
        ...leases,
        // Busy, and an operator cancels the job while the slot was being asked for.
        acquire: async () => {
          await cancelJob(base, id);
          return null;
        },
      },
    };
    setJobDriver(driver);
    const settled: string[] = [];
    const capped = job({
      name: unique('capped-cancel'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'capped-cancel',
      tenant: 'none',
      concurrency: { limit: 1 },
      run: () => undefined,
      onSettled: (s) => void settled.push(s.outcome),
    });
    id = await enqueue(capped, {});
    const { worker } = start(driver, [capped]);
    await worker.start();
    await until(() => settled.length > 0);
    expect(settled).toEqual(['cancelled']);
    expect((await base.introspect!.get(id))?.state).toBe('cancelled');
  });

  it("fails a job over its cap with X_JOB_CONCURRENCY_BUSY when it declares whenBusy: 'fail'", async () => {
    const driver = installed(memoryJobDriver());
    const exclusive = job({
      name: unique('exclusive'),
      queue: unique('q'),
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `x-${n}`,
      tenant: 'none',
      concurrency: { limit: 1, whenBusy: 'fail' },
      run: () => undefined,
    });
    await driver.leases!.acquire(`job:${exclusive.name}`, 'someone-else', { limit: 1, ttlMs: 60_000 });
    const id = await enqueue(exclusive, { n: 1 });
    await start(driver, [exclusive]).worker.start();
    await until(async () => (await driver.introspect!.get(id))?.state === 'dead');
    expect((await driver.introspect!.get(id))?.lastError?.code).toBe('X_JOB_CONCURRENCY_BUSY');
  });

  it('aborts a run whose fleet slot was taken over with X_JOB_SLOT_LOST, and retries it', async () => {
    const driver = installed(memoryJobDriver());
    let aborted: unknown;
    const guarded = job({
      name: unique('guarded'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'guarded',
      tenant: 'none',
      retry: { attempts: 3, delay: 60_000 },
      concurrency: { limit: 1 },
      async run({ ctx }) {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        aborted = ctx.signal.reason;
      },
    });
    const id = await enqueue(guarded, {});
    const { worker } = start(driver, [guarded], { visibilityTimeoutMs: 300, heartbeatIntervalMs: 20 });
    await worker.start();
    const key = `job:${guarded.name}`;
    await until(async () => (await driver.leases!.holders(key)).length === 1);
    const [held] = await driver.leases!.holders(key);
    // Its slot lapses and another run takes it over.
    expect(await driver.leases!.release(held!)).toBe(true);
    expect(await driver.leases!.acquire(key, 'someone-else', { limit: 1, ttlMs: 60_000 })).not.toBeNull();
    await until(() => aborted !== undefined);
    expect((aborted as { code?: string }).code).toBe('X_JOB_SLOT_LOST');
    await until(async () => (await driver.introspect!.get(id))?.state === 'delayed');
    expect((await driver.introspect!.get(id))?.lastError?.code).toBe('X_JOB_SLOT_LOST');
  });

  it('refuses to start, naming every such job, when the driver has no lease store', async () => {
    const { leases: _leases, ...withoutLeases } = memoryJobDriver();
    const capped = job({
      name: unique('capped'),
      input: z.object({}),
      idempotencyKey: () => 'c',
      tenant: 'none',
      concurrency: { limit: 2 },
      run: () => undefined,
    });
    const worker = createWorker({
      driver: withoutLeases as JobDriver,
      context: () => ({}),
      registry: { get: () => capped, jobs: () => [capped] } as never,
      handleSignals: false,
    });
    await expect(worker.start()).rejects.toMatchObject({
      code: 'X_JOB_CONCURRENCY_UNENFORCEABLE',
      meta: { jobs: [capped.name] },
    });
  });
});

describe('process limits', () => {
  it('defers a job over perTenant uncounted, and runs it once the tenant has a free slot', async () => {
    const driver = installed(memoryJobDriver());
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const report = job({
      name: unique('report'),
      queue: unique('q'),
      input: z.object({ orgId: z.string(), n: z.number() }),
      idempotencyKey: ({ n }) => `report-${n}`,
      tenant: ({ orgId }) => orgId,
      async run() {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
      },
    });
    const a = await enqueue(report, { orgId: 'acme', n: 1 });
    const b = await enqueue(report, { orgId: 'acme', n: 2 });
    const { worker } = start(driver, [report], { limits: { perTenant: 1 } });
    await worker.start();
    await until(() => releases.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(releases).toHaveLength(1);
    const waiting = [await driver.introspect!.get(a), await driver.introspect!.get(b)].find(
      (row) => row?.state !== 'running',
    );
    expect(waiting?.attempts).toBe(0);
    releases[0]?.();
    await until(() => releases.length === 2);
    releases[1]?.();
    await until(async () => (await driver.introspect!.get(b))?.state === 'done');
    expect((await driver.introspect!.get(a))?.state).toBe('done');
    expect(peak).toBe(1);
    expect(worker.stats().counts.deferred).toBeGreaterThan(0);
  });
});
