import { expect } from 'vitest';
import { expectErrorCode, LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'enqueue';

/** enqueue and enqueueMany: the row written, live-only dedupe, onConflict, batches. */
export const enqueueCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'enqueue → claim → ack: the row ends done with its result and no lease',
    async run(h) {
      const written = await h.enqueue(h.queue);
      expect(written.deduped).toBe(false);
      const job = await h.claimOne(h.queue);
      expect(job.id).toBe(written.id);
      expect(await h.driver.ack(job.id, job.claim, { sent: true })).toBe(true);
      const row = await h.row(job.id);
      expect(row.state).toBe('done');
      expect(row.result).toEqual({ sent: true });
      expect(row.finishedAt).not.toBeNull();
      // A lease belongs to a running row only: a done row shows none, whatever the driver keeps.
      expect(row.leaseExpiresAt).toBeNull();
      expect(await h.claim(h.queue)).toHaveLength(0);
    },
  },
  {
    group,
    name: 'a row without runAt is ready; one with a future runAt is delayed',
    async run(h) {
      const now = await h.enqueue(h.queue);
      const later = await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS });
      expect((await h.row(now.id)).state).toBe('ready');
      expect((await h.row(later.id)).state).toBe('delayed');
    },
  },
  {
    group,
    name: 'the row keeps every field of the request',
    async run(h) {
      const request = h.request(h.queue, {
        name: 'fields-job',
        payload: { list: [1, 'two', null, { deep: true }], n: 1.5, flag: false },
        tenantId: 'tenant-a',
        priority: 7,
        maxAttempts: 9,
        enqueuedBy: 'user-1',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      });
      const before = h.driver.now();
      await h.driver.enqueue(request);
      const row = await h.row(request.id);
      expect(row).toMatchObject({
        id: request.id,
        runId: request.runId,
        name: 'fields-job',
        queue: h.queue,
        state: 'ready',
        payload: request.payload,
        tenantId: 'tenant-a',
        idempotencyKey: request.idempotencyKey,
        priority: 7,
        attempts: 0,
        maxAttempts: 9,
        enqueuedBy: 'user-1',
        traceparent: request.traceparent,
        startedAt: null,
        finishedAt: null,
        lastError: null,
        stopReason: null,
        result: null,
        progress: null,
        waitingFor: null,
        cancelReason: null,
        leaseExpiresAt: null,
        workerId: null,
      });
      expect(row.enqueuedAt).toBeGreaterThanOrEqual(before - 25);
      expect(row.enqueuedAt).toBeLessThanOrEqual(h.driver.now() + 25);
    },
  },
  {
    group,
    name: 'a live duplicate answers deduped with the live row id and runId, writing nothing',
    async run(h) {
      const first = await h.enqueue(h.queue, { idempotencyKey: 'same' });
      const second = await h.enqueue(h.queue, { idempotencyKey: 'same', payload: { other: true } });
      expect(second).toEqual({ id: first.id, runId: first.runId, deduped: true });
      const page = await h.introspect.list({ queue: h.queue });
      expect(page.jobs.map((job) => job.id)).toEqual([first.id]);
      expect(page.jobs[0]?.payload).toEqual({ n: 1 });
    },
  },
  {
    group,
    name: 'dedupe is scoped by (name, tenantId, idempotencyKey)',
    async run(h) {
      const base = { name: 'scoped', tenantId: 'tenant-a', idempotencyKey: 'k' };
      const first = await h.enqueue(h.queue, base);
      const variants = [
        { ...base, name: 'scoped-other' },
        { ...base, tenantId: 'tenant-b' },
        { ...base, tenantId: null },
        { ...base, idempotencyKey: 'k2' },
      ];
      for (const variant of variants) {
        const result = await h.enqueue(h.queue, variant);
        expect(result.deduped, JSON.stringify(variant)).toBe(false);
        expect(result.id).not.toBe(first.id);
      }
      expect((await h.enqueue(h.queue, { ...base, tenantId: null })).deduped, 'null tenant dedupes too').toBe(
        true,
      );
      expect((await h.enqueue(h.queue, base)).deduped).toBe(true);
    },
  },
  {
    group,
    name: 'a key is held in every live state: delayed, running and suspended',
    async run(h) {
      const delayed = await h.enqueue(h.queue, {
        idempotencyKey: 'delayed',
        runAt: h.driver.now() + LONG_MS,
      });
      expect((await h.enqueue(h.queue, { idempotencyKey: 'delayed' })).id).toBe(delayed.id);

      const running = await h.enqueue(h.queue, { idempotencyKey: 'running' });
      const job = await h.claimOne(h.queue);
      expect(job.id).toBe(running.id);
      expect((await h.enqueue(h.queue, { idempotencyKey: 'running' })).id).toBe(running.id);

      const suspendedQueue = h.unique('q');
      const suspended = await h.enqueue(suspendedQueue, { idempotencyKey: 'suspended' });
      const held = await h.claimOne(suspendedQueue);
      await h.driver.nack(held.id, held.claim, { kind: 'suspend', runAt: h.driver.now() + LONG_MS });
      const again = await h.enqueue(suspendedQueue, { idempotencyKey: 'suspended' });
      expect(again).toMatchObject({ id: suspended.id, deduped: true });
    },
  },
  {
    group,
    name: '20 concurrent enqueues of one key write exactly one row',
    async run(h) {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => h.enqueue(h.queue, { idempotencyKey: 'racy' })),
      );
      const written = results.filter((result) => !result.deduped);
      expect(written).toHaveLength(1);
      expect(new Set(results.map((result) => result.id))).toEqual(new Set([written[0]!.id]));
      const page = await h.introspect.list({ queue: h.queue });
      expect(page.jobs).toHaveLength(1);
    },
  },
  {
    group,
    name: 'a key whose row is done, dead or cancelled enqueues a new row',
    async run(h) {
      const done = await h.enqueue(h.queue, { idempotencyKey: 'done' });
      const job = await h.claimOne(h.queue);
      await h.driver.ack(job.id, job.claim);
      const dead = await h.enqueue(h.queue, { idempotencyKey: 'dead' });
      const dying = await h.claimOne(h.queue);
      await h.driver.nack(dying.id, dying.claim, {
        kind: 'dead',
        error: { code: 'E', message: 'boom' },
        stopReason: 'terminal',
      });
      const cancelled = await h.enqueue(h.queue, { idempotencyKey: 'cancelled' });
      expect(await h.introspect.cancel(cancelled.id)).toBe(true);

      for (const [key, old] of [
        ['done', done],
        ['dead', dead],
        ['cancelled', cancelled],
      ] as const) {
        const fresh = await h.enqueue(h.queue, { idempotencyKey: key });
        expect(fresh.deduped, `${key} key`).toBe(false);
        expect(fresh.id).not.toBe(old.id);
        expect((await h.row(fresh.id)).state).toBe('ready');
      }
    },
  },
  {
    group,
    name: "onConflict 'error' throws X_JOB_DUPLICATE on a live key and writes nothing",
    async run(h) {
      await h.enqueue(h.queue, { idempotencyKey: 'taken' });
      const duplicate = h.request(h.queue, { idempotencyKey: 'taken', onConflict: 'error' });
      await expectErrorCode(() => h.driver.enqueue(duplicate), 'X_JOB_DUPLICATE');
      expect(await h.introspect.get(duplicate.id)).toBeNull();
      expect((await h.introspect.list({ queue: h.queue })).jobs).toHaveLength(1);
      const free = await h.enqueue(h.queue, { idempotencyKey: 'free', onConflict: 'error' });
      expect(free.deduped).toBe(false);
    },
  },
  {
    group,
    name: 'an id that is already a row answers that row deduped (a republish writes nothing)',
    async run(h) {
      const request = h.request(h.queue);
      await h.driver.enqueue(request);
      const job = await h.claimOne(h.queue);
      await h.driver.ack(job.id, job.claim);
      const again = await h.driver.enqueue(request);
      expect(again).toEqual({ id: request.id, runId: request.runId, deduped: true });
      expect((await h.row(request.id)).state).toBe('done');
      expect((await h.introspect.list({ queue: h.queue })).jobs).toHaveLength(1);
    },
  },
  {
    group,
    name: 'enqueueMany answers in request order',
    async run(h) {
      const requests = Array.from({ length: 12 }, (_, i) => h.request(h.queue, { payload: { i } }));
      const results = await h.driver.enqueueMany(requests);
      expect(results.map((result) => result.id)).toEqual(requests.map((request) => request.id));
      expect(results.map((result) => result.runId)).toEqual(requests.map((request) => request.runId));
      expect(results.every((result) => !result.deduped)).toBe(true);
      expect((await h.introspect.list({ queue: h.queue })).jobs).toHaveLength(12);
    },
  },
  {
    group,
    name: 'enqueueMany dedupes a key repeated in the batch to the first, and a key held by a live row',
    async run(h) {
      const live = await h.enqueue(h.queue, { idempotencyKey: 'live' });
      const first = h.request(h.queue, { idempotencyKey: 'twice' });
      const requests = [
        first,
        h.request(h.queue, { idempotencyKey: 'live' }),
        h.request(h.queue, { idempotencyKey: 'twice' }),
        h.request(h.queue, { idempotencyKey: 'once' }),
      ];
      const results = await h.driver.enqueueMany(requests);
      expect(results).toEqual([
        { id: first.id, runId: first.runId, deduped: false },
        { id: live.id, runId: live.runId, deduped: true },
        { id: first.id, runId: first.runId, deduped: true },
        { id: requests[3]!.id, runId: requests[3]!.runId, deduped: false },
      ]);
      expect((await h.introspect.list({ queue: h.queue })).jobs).toHaveLength(3);
    },
  },
  {
    group,
    name: "quotes, backslashes and '; drop table x; -- round-trip in every string",
    async run(h) {
      const hostile = `it's "quoted" '; drop table x; -- \\ \n ünï 🚀 {tag}`;
      const request = h.request(h.queue, {
        name: `job ${hostile}`,
        payload: { [hostile]: hostile, list: [hostile] },
        tenantId: hostile,
        idempotencyKey: hostile,
        enqueuedBy: hostile,
      });
      await h.driver.enqueue(request);
      const again = await h.enqueue(h.queue, {
        name: request.name,
        tenantId: hostile,
        idempotencyKey: hostile,
      });
      expect(again).toMatchObject({ id: request.id, deduped: true });
      const job = await h.claimOne(h.queue);
      expect(job).toMatchObject({
        name: request.name,
        payload: request.payload,
        tenantId: hostile,
        idempotencyKey: hostile,
        enqueuedBy: hostile,
      });
      expect(await h.driver.ack(job.id, job.claim, { echo: hostile })).toBe(true);
      expect((await h.row(job.id)).result).toEqual({ echo: hostile });
    },
  },
  {
    group,
    name: "enqueueMany dedupes every request: one carrying onConflict 'error' answers the live row, no error",
    async run(h) {
      const live = await h.enqueue(h.queue);
      const { idempotencyKey } = await h.row(live.id);
      const duplicate = h.request(h.queue, { idempotencyKey, onConflict: 'error' });
      const fresh = h.request(h.queue, { onConflict: 'error' });
      expect(await h.driver.enqueueMany([duplicate, fresh])).toEqual([
        { id: live.id, runId: (await h.row(live.id)).runId, deduped: true },
        { id: fresh.id, runId: fresh.runId, deduped: false },
      ]);
      expect(await h.introspect.get(duplicate.id)).toBeNull();
    },
  },
];
