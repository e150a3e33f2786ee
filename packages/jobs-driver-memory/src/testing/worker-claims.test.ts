import { createWorker, type JobDriver, job } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enqueue, installed, start, unique, until } from '../../test/worker-lifecycle-fixtures.js';
import { memoryJobDriver } from '../memory-job-driver.js';

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
