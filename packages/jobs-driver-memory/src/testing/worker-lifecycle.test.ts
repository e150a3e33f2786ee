import {
  cancelJob,
  createWorker,
  executeJob,
  type JobDriver,
  job,
  recordingLogger,
  setJobDriver,
  silentLogger,
  type Worker,
} from '@x/jobs-core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryJobDriver } from '../memory-driver.js';
import { createJobTestHarness } from './index.js';

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

function unique(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2)}`;
}

/** Installs `driver` as the ambient one (where `handle.enqueue` publishes) and answers it. */
function installed<Driver extends JobDriver>(driver: Driver): Driver {
  setJobDriver(driver);
  return driver;
}

/** A job whose body ignores its signal and never settles; `started()` says whether it began. */
function stubbornJob(prefix: string) {
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
function failingHeartbeats() {
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

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function start(driver: JobDriver, jobs: { name: string; queue: string }[], extra: object = {}) {
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

async function enqueue(handle: { enqueue(input: object): Promise<{ id: string }> }, input: object) {
  return (await handle.enqueue(input)).id;
}

describe('worker drain (SIGTERM path)', () => {
  it('aborts held jobs with X_DRAINING, hands them back uncounted, and the next worker resumes from the last completed step', async () => {
    const driver = installed(memoryJobDriver());
    const calls: string[] = [];
    let reason: unknown;
    const deploy = job({
      name: unique('deploy'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'deploy',
      tenant: 'none',
      retry: { attempts: 1 },
      async run({ step, ctx }) {
        await step.run('first', () => void calls.push('first'));
        await step.run('slow', async (signal) => {
          calls.push('slow');
          if (calls.filter((call) => call === 'slow').length > 1) return; // the resumed run is quick
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, 60_000);
            signal.addEventListener('abort', () => {
              clearTimeout(timer);
              reason = ctx.signal.reason;
              reject(new Error('interrupted'));
            });
          });
        });
        await step.run('last', () => void calls.push('last'));
      },
    });
    const id = await enqueue(deploy, {});
    const first = start(driver, [deploy], { drainTimeoutMs: 2_000 });
    await first.worker.start();
    await until(() => calls.includes('slow'));
    await first.worker.drain();
    expect((reason as { code?: string }).code).toBe('X_DRAINING');
    const row = await driver.introspect!.get(id);
    expect(row?.state).toBe('ready');
    expect(row?.attempts).toBe(0); // attempts: 1 survives a rollout

    const second = start(driver, [deploy]);
    await second.worker.start();
    await until(async () => (await driver.introspect!.get(id))?.state === 'done');
    expect(calls).toEqual(['first', 'slow', 'slow', 'last']);
  });

  it('hands an unwind interrupted by the drain back uncounted; the next worker finishes compensating', async () => {
    const driver = installed(memoryJobDriver());
    const undone: string[] = [];
    const refund = job({
      name: unique('refund'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'refund',
      tenant: 'none',
      compensates: true,
      retry: { attempts: 1 },
      async run({ step }) {
        await step.run('charge', () => 'c-1', {
          compensate: async (charge, { signal }) => {
            undone.push(`refund ${charge}`);
            if (undone.length > 1) return; // the resumed unwind is quick
            await new Promise<void>((_, reject) =>
              signal.addEventListener('abort', () => reject(new Error('interrupted'))),
            );
          },
        });
        throw new Error('ship failed');
      },
    });
    const id = await enqueue(refund, {});
    const first = start(driver, [refund], { drainTimeoutMs: 2_000 });
    await first.worker.start();
    await until(() => undone.length === 1);
    await first.worker.drain();
    const handedBack = await driver.introspect!.get(id);
    expect(handedBack?.state).toBe('ready');
    expect(handedBack?.attempts).toBe(0);

    await start(driver, [refund]).worker.start();
    await until(async () => (await driver.introspect!.get(id))?.state === 'dead');
    const row = await driver.introspect!.get(id);
    expect(row?.lastError?.message).toBe('ship failed');
    expect(row?.stopReason).toBe('attempts-exhausted');
    expect(undone).toEqual(['refund c-1', 'refund c-1']);
  });

  it('abandons a body that ignores the signal at the drain deadline and logs it', async () => {
    const driver = installed(memoryJobDriver());
    const { handle: stubborn, started } = stubbornJob('stubborn');
    await enqueue(stubborn, {});
    const { worker, logger } = start(driver, [stubborn], { drainTimeoutMs: 50 });
    await worker.start();
    await until(started);
    await worker.drain();
    expect(logger.events.map((event) => event.event)).toContain('jobs.worker.drain-abandoned');
  });
});

/** A driver whose claims wait at a gate while `gate.closed` is set: a claim in flight, on demand. */
function gatedClaims(driver: JobDriver) {
  const gate: { closed: boolean; waiting: number; open: () => void } = {
    closed: false,
    waiting: 0,
    open: () => undefined,
  };
  let opened = Promise.resolve();
  const gated: JobDriver = {
    ...driver,
    claim: async (options) => {
      if (gate.closed) {
        gate.waiting += 1;
        await opened;
      }
      return driver.claim(options);
    },
  };
  return {
    gated,
    gate,
    close() {
      gate.closed = true;
      opened = new Promise<void>((resolve) => {
        gate.open = () => {
          gate.closed = false;
          resolve();
        };
      });
    },
  };
}

describe('stop with a claim in flight', () => {
  it('hands back uncounted what a claim in flight at drain() returns, and never runs it', async () => {
    const driver = installed(memoryJobDriver());
    const ran: string[] = [];
    const late = job({
      name: unique('late'),
      queue: unique('q'),
      input: z.object({}),
      idempotencyKey: () => 'late',
      tenant: 'none',
      run: () => void ran.push('late'),
    });
    const id = await enqueue(late, {});
    const { gated, gate, close } = gatedClaims(driver);
    close();
    const { worker } = start(gated, [late]);
    await worker.start();
    await until(() => gate.waiting > 0);
    const draining = worker.drain();
    gate.open();
    await draining;
    expect(ran).toEqual([]);
    const row = await driver.introspect!.get(id);
    expect(row?.state).toBe('ready');
    expect(row?.attempts).toBe(0);
  });

  it('abandons at the deadline even when it passes while a claim is still in flight', async () => {
    const driver = installed(memoryJobDriver());
    const { handle: stubborn, started } = stubbornJob('stuck');
    await enqueue(stubborn, {});
    const { gated, gate, close } = gatedClaims(driver);
    const { worker, logger } = start(gated, [stubborn], {
      concurrency: 2,
      idlePollMaxMs: 10,
      drainTimeoutMs: 30,
    });
    await worker.start();
    await until(started);
    close();
    await until(() => gate.waiting > 0); // the pool's next claim hangs at the gate
    let drained = false;
    const draining = worker.drain().then(() => {
      drained = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the deadline passes mid-claim
    gate.open();
    await until(() => drained, 2_000);
    await draining;
    expect(logger.events.map((event) => event.event)).toContain('jobs.worker.drain-abandoned');
  });
});

describe('drain deadline', () => {
  it('stops renewing an abandoned job, so its lease lapses and it is redelivered as a counted attempt', async () => {
    const driver = installed(memoryJobDriver());
    const { handle: stubborn, started } = stubbornJob('deaf');
    const id = await enqueue(stubborn, {});
    const { worker } = start(driver, [stubborn], {
      drainTimeoutMs: 30,
      visibilityTimeoutMs: 150,
      heartbeatIntervalMs: 10,
    });
    await worker.start();
    await until(started);
    await worker.drain();
    let redelivered: { attempt: number } | undefined;
    await until(async () => {
      [redelivered] = await driver.claim({
        queues: [stubborn.queue],
        limit: 1,
        workerId: 'replacement',
        visibilityTimeoutMs: 60_000,
      });
      return redelivered !== undefined;
    }, 2_000);
    expect(redelivered?.attempt).toBe(2);
    expect((await driver.introspect!.get(id))?.workerId).toBe('replacement');
  });
});

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
    await until(async () => (await driver.introspect!.get(first))?.state === 'done');
    await new Promise((resolve) => setTimeout(resolve, 300));

    // A job that finishes quickly never reports a lost lease, even with slow heartbeats in flight.
    const before = logger.events.filter((event) => event.event === 'jobs.lease.lost').length;
    const id = await enqueue(held, { n: 2 });
    await until(async () => (await driver.introspect!.get(id))?.state === 'done');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logger.events.filter((event) => event.event === 'jobs.lease.lost')).toHaveLength(before);
    for (const release of releases) release();
  });
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

describe('idle worker', () => {
  it('starts a newly enqueued job within milliseconds through the driver wake, without polling hot', async () => {
    const driver = installed(memoryJobDriver());
    const startedAt: number[] = [];
    const ping = job({
      name: unique('ping'),
      queue: unique('q'),
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `ping-${n}`,
      tenant: 'none',
      run: () => void startedAt.push(performance.now()),
    });
    let claims = 0;
    const counting: JobDriver = {
      ...driver,
      claim: (options) => {
        claims += 1;
        return driver.claim(options);
      },
    };
    const { worker } = start(counting, [ping], { idlePollMaxMs: 5_000 });
    await worker.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const idleClaims = claims;
    expect(idleClaims).toBeLessThan(10); // backed off, not spinning
    const enqueuedAt = performance.now();
    await enqueue(ping, { n: 1 });
    await until(() => startedAt.length === 1);
    expect(startedAt[0]! - enqueuedAt).toBeLessThan(1_000);
  });
});

describe('prefetch', () => {
  it('claims ahead into a local buffer, hands back a buffered job before its lease could lapse, and empties the buffer at stop', async () => {
    const driver = installed(memoryJobDriver());
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const slow = job({
      name: unique('prefetched'),
      queue: unique('q'),
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `p-${n}`,
      tenant: 'none',
      run: ({ input }) => {
        started.push(input.n);
        return new Promise<void>((resolve) => releases.push(resolve));
      },
    });
    const ids: string[] = [];
    for (let n = 1; n <= 3; n += 1) ids.push(await enqueue(slow, { n }));
    const { worker } = start(driver, [slow], { concurrency: 1, prefetch: 2, visibilityTimeoutMs: 300 });
    await worker.start();
    await until(() => started.length === 1);
    // One running, two claimed into the buffer: claimed rows are `running` under this worker.
    await until(async () => (await driver.introspect!.get(ids[1]!))?.state === 'running');
    // Not started within a third of the 300 ms lease: handed back, attempt uncounted.
    await until(async () => {
      const row = await driver.introspect!.get(ids[1]!);
      return row?.state === 'ready' && row.attempts === 0;
    });
    expect(started).toEqual([1]);
    releases[0]?.();
    await until(() => started.length === 2);
    releases[1]?.();
    await until(() => started.length === 3);
    releases[2]?.();
    await until(async () => (await driver.introspect!.get(ids[2]!))?.state === 'done');

    // At stop, whatever is buffered goes back uncounted.
    const more: string[] = [];
    for (let n = 4; n <= 6; n += 1) more.push(await enqueue(slow, { n }));
    await until(() => started.length === 4);
    const stopping = worker.stop();
    releases[3]?.();
    await stopping;
    const rows = await Promise.all(more.map((id) => driver.introspect!.get(id)));
    expect(rows.map((row) => row?.state)).toEqual(['done', 'ready', 'ready']);
    expect(rows.map((row) => row?.attempts)).toEqual([1, 0, 0]);
  });

  it('grows its claims while they come back full, and falls back to the prefetch once the queue runs dry', async () => {
    const base = installed(memoryJobDriver());
    const limits: number[] = [];
    const driver: JobDriver = {
      ...base,
      claim: (options) => {
        limits.push(options.limit);
        return base.claim(options);
      },
    };
    let ran = 0;
    const quick = job({
      name: unique('quick'),
      queue: unique('q'),
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `quick-${n}`,
      tenant: 'none',
      run: () => {
        ran += 1;
      },
    });
    await quick.enqueueMany(Array.from({ length: 400 }, (_, n) => ({ n })));
    const { worker } = start(driver, [quick], { concurrency: 2, prefetch: 2 });
    await worker.start();
    await until(() => ran === 400);
    expect(limits[0]).toBe(4); // 2 slots + 2 prefetched
    expect(Math.max(...limits)).toBeGreaterThan(4); // a deep queue: bigger batches
    expect(Math.max(...limits)).toBeLessThanOrEqual(2 + 32); // capped at 16× the prefetch
    // Dry now: the next claim asks for the plain window again.
    const before = limits.length;
    await enqueue(quick, { n: 1_000 });
    await until(() => ran === 401);
    expect(limits.slice(before).every((limit) => limit <= 4)).toBe(true);
  });

  it('refuses a negative or fractional prefetch', () => {
    const driver = memoryJobDriver();
    expect(() =>
      createWorker({ driver, context: () => ({}), queues: ['q'], prefetch: -1, handleSignals: false }),
    ).toThrow(expect.objectContaining({ code: 'X_WORKER_OPTIONS_INVALID' }));
  });
});
