import { type JobDriver, job } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  enqueue,
  installed,
  start,
  stubbornJob,
  unique,
  until,
} from '../../test/worker-lifecycle-fixtures.js';
import { memoryJobDriver } from '../memory-job-driver.js';

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
