import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'claim';

/** claim: batch limit, queue filter, ordering, delay, pause, exclusivity under races. */
export const claimCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a claimed job carries the row, attempt 1, its lease and the claim',
    async run(h) {
      const request = h.request(h.queue, { tenantId: 't', priority: 3, maxAttempts: 4, enqueuedBy: 'u' });
      await h.driver.enqueue(request);
      const before = h.driver.now();
      const job = await h.claimOne(h.queue, { workerId: 'worker-a', visibilityTimeoutMs: 30_000 });
      const after = h.driver.now();
      expect(job).toMatchObject({
        id: request.id,
        runId: request.runId,
        name: request.name,
        queue: h.queue,
        payload: request.payload,
        tenantId: 't',
        idempotencyKey: request.idempotencyKey,
        priority: 3,
        attempt: 1,
        maxAttempts: 4,
        enqueuedBy: 'u',
      });
      expect(job.claim.workerId).toBe('worker-a');
      expect(typeof job.claim.token).toBe('string');
      expect(job.claim.token.length).toBeGreaterThan(0);
      expect(job.leaseExpiresAt).toBeGreaterThanOrEqual(before + 30_000 - 25);
      expect(job.leaseExpiresAt).toBeLessThanOrEqual(after + 30_000 + 25);
      const row = await h.row(job.id);
      // The claim counts nothing: attempt 1 is what the row's first start will count.
      expect(row).toMatchObject({ state: 'running', attempts: 0, workerId: 'worker-a', startedAt: null });
    },
  },
  {
    group,
    name: 'a claim takes at most limit rows',
    async run(h) {
      for (let i = 0; i < 5; i += 1) await h.enqueue(h.queue);
      expect(await h.claim(h.queue, { limit: 3 })).toHaveLength(3);
      expect(await h.claim(h.queue, { limit: 3 })).toHaveLength(2);
      expect(await h.claim(h.queue, { limit: 3 })).toHaveLength(0);
    },
  },
  {
    group,
    name: 'a claim takes only from the named queues; no queues claims nothing',
    async run(h) {
      const [a, b, c] = [h.unique('qa'), h.unique('qb'), h.unique('qc')];
      const inA = await h.enqueue(a);
      const inB = await h.enqueue(b);
      await h.enqueue(c);
      const none = await h.driver.claim({
        queues: [],
        limit: 10,
        workerId: 'w',
        visibilityTimeoutMs: LONG_MS,
      });
      expect(none).toHaveLength(0);
      const claimed = await h.driver.claim({
        queues: [a, b],
        limit: 10,
        workerId: 'w',
        visibilityTimeoutMs: LONG_MS,
      });
      expect(new Set(claimed.map((job) => job.id))).toEqual(new Set([inA.id, inB.id]));
      expect(await h.claim(c)).toHaveLength(1);
    },
  },
  {
    group,
    name: 'higher priority is claimed first, also by a batch',
    async run(h) {
      const low = await h.enqueue(h.queue, { priority: 0 });
      const high = await h.enqueue(h.queue, { priority: 10 });
      const mid = await h.enqueue(h.queue, { priority: 5 });
      const negative = await h.enqueue(h.queue, { priority: -5 });
      const batch = await h.claim(h.queue, { limit: 2 });
      expect(new Set(batch.map((job) => job.id))).toEqual(new Set([high.id, mid.id]));
      expect((await h.claimOne(h.queue)).id).toBe(low.id);
      expect((await h.claimOne(h.queue)).id).toBe(negative.id);
    },
  },
  {
    group,
    name: 'within a priority, rows are claimed in enqueue order',
    async run(h) {
      const ids: string[] = [];
      for (let i = 0; i < 6; i += 1) ids.push((await h.enqueue(h.queue, { priority: 1 })).id);
      const order: string[] = [];
      for (let i = 0; i < 6; i += 1) order.push((await h.claimOne(h.queue)).id);
      expect(order).toEqual(ids);
    },
  },
  {
    group,
    name: 'within a priority, an earlier runAt is claimed first',
    async run(h) {
      const now = h.driver.now();
      const recent = await h.enqueue(h.queue);
      const older = await h.enqueue(h.queue, { runAt: now - 60_000 });
      const oldest = await h.enqueue(h.queue, { runAt: now - 120_000 });
      const order = [];
      for (let i = 0; i < 3; i += 1) order.push((await h.claimOne(h.queue)).id);
      expect(order).toEqual([oldest.id, older.id, recent.id]);
    },
  },
  {
    group,
    name: 'a delayed row is invisible before its runAt',
    async run(h) {
      const delayed = await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS, priority: 100 });
      const ready = await h.enqueue(h.queue);
      const claimed = await h.claim(h.queue);
      expect(claimed.map((job) => job.id)).toEqual([ready.id]);
      expect((await h.row(delayed.id)).state).toBe('delayed');
    },
  },
  {
    group,
    name: 'a delayed row is claimable once its runAt passes',
    async run(h) {
      const runAt = h.driver.now() + h.tickMs;
      const delayed = await h.enqueue(h.queue, { runAt });
      await h.advance(h.tickMs * 2);
      const job = await h.claimOne(h.queue);
      expect(job).toMatchObject({ id: delayed.id, attempt: 1, runAt });
    },
  },
  {
    group,
    name: 'a paused queue is skipped until resumed',
    async run(h) {
      const other = h.unique('q');
      const held = await h.enqueue(h.queue);
      const free = await h.enqueue(other);
      await h.introspect.pause(h.queue);
      const claimed = await h.driver.claim({
        queues: [h.queue, other],
        limit: 10,
        workerId: 'w',
        visibilityTimeoutMs: LONG_MS,
      });
      expect(claimed.map((job) => job.id)).toEqual([free.id]);
      expect((await h.row(held.id)).state).toBe('ready');
      await h.introspect.resume(h.queue);
      expect((await h.claimOne(h.queue)).id).toBe(held.id);
    },
  },
  {
    group,
    name: 'racing claimers never share a row: 10 parallel claims over 50 rows take each exactly once',
    async run(h) {
      const requests = Array.from({ length: 50 }, () => h.request(h.queue));
      await h.driver.enqueueMany(requests);
      const batches = await Promise.all(
        Array.from({ length: 10 }, (_, i) => h.claim(h.queue, { limit: 10, workerId: `racer-${i}` })),
      );
      const sweep = await h.claim(h.queue, { limit: 50 });
      const ids = [...batches.flat(), ...sweep].map((job) => job.id);
      expect(ids).toHaveLength(50);
      expect(new Set(ids)).toEqual(new Set(requests.map((request) => request.id)));
      const tokens = [...batches.flat(), ...sweep].map((job) => job.claim.token);
      expect(new Set(tokens).size).toBe(50);
    },
  },
];
