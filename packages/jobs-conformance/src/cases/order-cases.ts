import type { ClaimedJob } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'order';

/** Claims one row at a time from `queues` until none is left; answers the ids in claim order. */
async function drainOneByOne(h: DriverHarness, queues: readonly string[], count: number): Promise<string[]> {
  const order: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const claimed: readonly ClaimedJob[] = await h.driver.claim({
      queues,
      limit: 1,
      workerId: 'order-worker',
      visibilityTimeoutMs: LONG_MS,
    });
    expect(claimed, `claim ${i + 1} of ${count}`).toHaveLength(1);
    order.push(claimed[0]!.id);
  }
  return order;
}

/**
 * Claim order over everything one claim covers: priority, then run time, then enqueue order,
 * across every queue the claim names, and with rows whose priority and `runAt` truly tie.
 */
export const orderCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'priority orders rows across every queue one claim names',
    async run(h) {
      const [a, b, c] = [h.unique('qa'), h.unique('qb'), h.unique('qc')];
      const low = await h.enqueue(a, { priority: 0 });
      const high = await h.enqueue(c, { priority: 9 });
      const mid = await h.enqueue(b, { priority: 4 });
      const top = await h.enqueue(a, { priority: 20 });
      expect(await drainOneByOne(h, [a, b, c], 4)).toEqual([top.id, high.id, mid.id, low.id]);
    },
  },
  {
    group,
    name: 'within a priority, the earlier runAt wins across queues, whichever queue is named first',
    async run(h) {
      const [a, b] = [h.unique('qa'), h.unique('qb')];
      const now = h.driver.now();
      const recentA = await h.enqueue(a, { runAt: now - 1_000 });
      const oldB = await h.enqueue(b, { runAt: now - 90_000 });
      const olderA = await h.enqueue(a, { runAt: now - 60_000 });
      expect(await drainOneByOne(h, [a, b], 3)).toEqual([oldB.id, olderA.id, recentA.id]);
    },
  },
  {
    group,
    name: 'rows that tie on priority and runAt are claimed in enqueue order, across queues and batches',
    async run(h) {
      const [a, b] = [h.unique('qa'), h.unique('qb')];
      const runAt = h.driver.now() - 30_000;
      const ids: string[] = [];
      for (let i = 0; i < 6; i += 1)
        ids.push((await h.enqueue(i % 2 === 0 ? b : a, { runAt, priority: 3 })).id);
      const batch = await h.driver.enqueueMany([0, 1, 2].map(() => h.request(a, { runAt, priority: 3 })));
      ids.push(...batch.map((result) => result.id));
      expect(await drainOneByOne(h, [a, b], ids.length)).toEqual(ids);
    },
  },
  {
    group,
    name: 'a batch claim takes the first rows of the global order across its queues',
    async run(h) {
      const [a, b] = [h.unique('qa'), h.unique('qb')];
      const runAt = h.driver.now() - 10_000;
      const first = await h.enqueue(b, { runAt, priority: 1 });
      await h.enqueue(a, { runAt, priority: 0 });
      const second = await h.enqueue(a, { runAt, priority: 1 });
      await h.enqueue(b, { runAt, priority: 0 });
      const claimed = await h.driver.claim({
        queues: [a, b],
        limit: 2,
        workerId: 'w',
        visibilityTimeoutMs: LONG_MS,
      });
      expect(new Set(claimed.map((job) => job.id))).toEqual(new Set([first.id, second.id]));
    },
  },
];
