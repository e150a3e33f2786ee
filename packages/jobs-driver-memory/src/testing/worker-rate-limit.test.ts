import { createWorker, errorCode, job, silentLogger } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unique } from '../../test/worker-lifecycle-fixtures.js';
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
