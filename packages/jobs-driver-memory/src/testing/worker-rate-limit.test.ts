import { createWorker, errorCode, job, silentLogger } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enqueue, installed, start, unique, until } from '../../test/worker-lifecycle-fixtures.js';
import { memoryJobDriver } from '../memory-job-driver.js';
import { createJobTestHarness } from './index.js';

const call = z.object({ n: z.number(), apiKey: z.string() });

describe('job.rateLimit on the worker', () => {
  it('defers runs over the limit to when the window allows, uncounted, and runs every one once', async () => {
    const startedAt: Record<string, number[]> = {};
    let clockNow = () => 0;
    const sync = job({
      name: unique('sync'),
      input: call,
      idempotencyKey: ({ n }) => `sync-${n}`,
      tenant: 'none',
      rateLimit: { key: ({ apiKey }) => apiKey, limit: 2, per: '1m' },
      run({ input }) {
        startedAt[input.apiKey] = [...(startedAt[input.apiKey] ?? []), clockNow()];
        return input.n;
      },
    });
    const h = createJobTestHarness({ jobs: [sync] });
    clockNow = () => h.clock.now();
    try {
      const ids = [];
      for (let n = 0; n < 7; n += 1) ids.push((await h.run(sync, { n, apiKey: n < 5 ? 'ak-a' : 'ak-b' })).id);
      const began = h.clock.now();
      await h.drain();
      const a = startedAt['ak-a'] ?? [];
      expect(a, 'every run of ak-a, once').toHaveLength(5);
      expect(startedAt['ak-b'], 'ak-b has its own budget').toEqual([began, began]);
      for (const [i, at] of a.entries()) {
        expect(
          a.filter((other) => other >= at && other < at + 60_000).length,
          `window from run ${i}`,
        ).toBeLessThanOrEqual(2);
      }
      expect(a.slice(0, 2)).toEqual([began, began]);
      expect(a[2], 'the first deferral comes back when the first grant stops counting').toBe(began + 60_000);
      for (const id of ids) {
        const row = await h.job(id);
        expect(row?.state).toBe('done');
        expect(row?.attempts, 'deferrals charge no attempt').toBe(1);
      }
    } finally {
      await h.close();
    }
  });

  it.each([
    { limit: 'job.rateLimit (fleet-wide, through the driver)', rateLimit: true },
    { limit: 'limits.ratePerTenant (this process, a hand-back)', rateLimit: false },
  ])(
    'claims a run deferred by $limit again at its run time, not at the next idle poll',
    async ({ rateLimit }) => {
      const driver = installed(memoryJobDriver());
      const startedAt: number[] = [];
      const releases: (() => void)[] = [];
      const window = { limit: 2, per: '1s' } as const;
      const limited = job({
        name: unique('limited'),
        queue: unique('q'),
        input: z.object({ n: z.number() }),
        idempotencyKey: ({ n }) => `limited-${n}`,
        tenant: () => 'acme',
        ...(rateLimit ? { rateLimit: window } : {}),
        run: () => {
          startedAt.push(performance.now());
          // The granted runs hold their slots, so the pool stays busy and would sleep idlePollMaxMs.
          return new Promise<void>((resolve) => releases.push(resolve));
        },
      });
      for (let n = 0; n < 3; n += 1) await enqueue(limited, { n });
      const idlePollMaxMs = 5_000;
      const { worker, logger } = start(driver, [limited], {
        concurrency: 4,
        idlePollMaxMs,
        ...(rateLimit ? {} : { limits: { ratePerTenant: window } }),
      });
      await worker.start();
      try {
        await until(() => startedAt.length === 3, idlePollMaxMs + 2_000);
        const [first, , third] = startedAt as [number, number, number];
        const deferred = rateLimit ? 'jobs.rate-limit.deferred' : 'jobs.limit.deferred';
        expect(logger.events.some((entry) => entry.event === deferred)).toBe(true);
        expect(third - first, 'the window is kept').toBeGreaterThanOrEqual(900);
        // Its run time is ~1 s after the first start; the idle poll would have claimed it after 5 s.
        expect(third - first, 'claimed at its run time').toBeLessThan(idlePollMaxMs / 2);
      } finally {
        for (const release of releases.splice(0)) release();
      }
    },
  );

  it('refuses to start a worker whose driver has no rate-limit store', async () => {
    const limited = job({
      name: unique('limited'),
      input: z.object({}),
      idempotencyKey: () => 'k',
      tenant: 'none',
      rateLimit: { limit: 1, per: '1s' },
      run() {},
    });
    const { rateLimits: _dropped, ...driver } = memoryJobDriver();
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry: { get: () => limited, jobs: () => [limited] },
      queues: [limited.queue],
      handleSignals: false,
      logger: silentLogger,
    });
    const refusal = await worker.start().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(errorCode(refusal)).toBe('X_JOB_RATE_LIMIT_UNENFORCEABLE');
    await worker.stop();
  });
});
