import type { WorkerInfo } from '@x/jobs-core';
import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { saveStep, stepRecord } from './step-records.js';

const group = 'introspect';
const failure = { code: 'E', message: 'failed for good' };

/** Operator reads and writes: list, get, retry, remove, promote, pause, resolveStep, workers, purge. */
export const introspectionCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'list filters by queue, state, name and tenantId',
    async run(h) {
      const other = h.unique('q');
      const a = await h.enqueue(h.queue, { name: 'alpha', tenantId: 't1' });
      const b = await h.enqueue(h.queue, { name: 'beta', tenantId: 't2' });
      const c = await h.enqueue(h.queue, { name: 'alpha', tenantId: 't2', runAt: h.driver.now() + LONG_MS });
      await h.enqueue(other, { name: 'alpha', tenantId: 't1' });
      const ids = async (query: Parameters<typeof h.introspect.list>[0]) =>
        new Set((await h.introspect.list(query)).jobs.map((job) => job.id));
      expect(await ids({ queue: h.queue })).toEqual(new Set([a.id, b.id, c.id]));
      expect(await ids({ queue: h.queue, name: 'alpha' })).toEqual(new Set([a.id, c.id]));
      expect(await ids({ queue: h.queue, tenantId: 't2' })).toEqual(new Set([b.id, c.id]));
      expect(await ids({ queue: h.queue, state: 'delayed' })).toEqual(new Set([c.id]));
      expect(await ids({ queue: h.queue, state: 'ready', name: 'alpha', tenantId: 't1' })).toEqual(
        new Set([a.id]),
      );
    },
  },
  {
    group,
    name: 'list pages newest enqueued first, following nextCursor to a null end',
    async run(h) {
      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        ids.push((await h.enqueue(h.queue)).id);
        await h.advance(2);
      }
      const first = await h.introspect.list({ queue: h.queue, limit: 3 });
      expect(first.jobs.map((job) => job.id)).toEqual(ids.slice(4).reverse());
      expect(first.nextCursor).not.toBeNull();
      const seen = [...first.jobs.map((job) => job.id)];
      let cursor = first.nextCursor;
      while (cursor !== null) {
        const page = await h.introspect.list({ queue: h.queue, limit: 3, cursor });
        expect(page.jobs.length).toBeLessThanOrEqual(3);
        seen.push(...page.jobs.map((job) => job.id));
        cursor = page.nextCursor;
        expect(seen.length, 'pagination ends').toBeLessThanOrEqual(7);
      }
      expect(seen).toEqual([...ids].reverse());
    },
  },
  {
    group,
    name: 'get answers the row with its steps, and null for an unknown id',
    async run(h) {
      const written = await h.enqueue(h.queue);
      const job = await h.claimOne(h.queue);
      const step = stepRecord('load', 0, h.driver.now());
      await saveStep(h, job, step);
      const detail = await h.row(written.id);
      expect(detail).toMatchObject({ id: written.id, runId: written.runId, state: 'running', steps: [step] });
      expect(await h.introspect.get(h.unique('absent'))).toBeNull();
    },
  },
  {
    group,
    name: "dead letters are listed by list({ state: 'dead' })",
    async run(h) {
      await h.enqueue(h.queue);
      await h.enqueue(h.queue);
      const [dying, living] = await h.claim(h.queue, { limit: 2 });
      await h.driver.nack(dying!.id, dying!.claim, { kind: 'dead', error: failure, stopReason: 'terminal' });
      await h.driver.ack(living!.id, living!.claim);
      const dead = await h.introspect.list({ queue: h.queue, state: 'dead' });
      expect(dead.jobs.map((job) => job.id)).toEqual([dying!.id]);
      expect(dead.jobs[0]).toMatchObject({ lastError: failure, stopReason: 'terminal' });
    },
  },
  {
    group,
    name: 'retry puts a dead, done or cancelled row back to ready with attempts reset; a live row is refused',
    async run(h) {
      const written = await h.enqueue(h.queue);
      expect(await h.introspect.retry(written.id), 'live').toBe(false);
      const job = await h.claimOne(h.queue);
      expect(await h.introspect.retry(job.id), 'running').toBe(false);
      await h.driver.nack(job.id, job.claim, {
        kind: 'dead',
        error: failure,
        stopReason: 'attempts-exhausted',
      });
      expect(await h.introspect.retry(job.id)).toBe(true);
      expect(await h.row(job.id)).toMatchObject({ state: 'ready', attempts: 0 });
      const again = await h.claimOne(h.queue);
      expect(again).toMatchObject({ id: job.id, attempt: 1 });
      await h.driver.ack(again.id, again.claim);
      expect(await h.introspect.retry(job.id), 'done').toBe(true);
      expect(await h.introspect.cancel(job.id)).toBe(true);
      expect(await h.introspect.retry(job.id), 'cancelled').toBe(true);
      expect(await h.introspect.retry(h.unique('absent')), 'absent').toBe(false);
    },
  },
  {
    group,
    name: 'retry is refused while another live row holds the key',
    async run(h) {
      const old = await h.enqueue(h.queue, { idempotencyKey: 'k' });
      expect(await h.introspect.cancel(old.id)).toBe(true);
      const fresh = await h.enqueue(h.queue, { idempotencyKey: 'k' });
      expect(fresh.deduped).toBe(false);
      expect(await h.introspect.retry(old.id)).toBe(false);
      expect((await h.row(old.id)).state).toBe('cancelled');
    },
  },
  {
    group,
    name: 'retry fromStep deletes that step and every later one, keeping the earlier ones',
    async run(h) {
      const job = await h.running();
      const at = h.driver.now();
      const steps = ['fetch', 'transform', 'load', 'notify'].map((name, i) => stepRecord(name, i, at));
      for (const step of steps) await saveStep(h, job, step);
      await h.driver.nack(job.id, job.claim, { kind: 'dead', error: failure, stopReason: 'terminal' });
      expect(await h.introspect.retry(job.id, { fromStep: 'no-such-step' }), 'unknown step').toBe(false);
      expect(await h.driver.steps.load(job.runId)).toEqual(steps);
      expect(await h.introspect.retry(job.id, { fromStep: 'load' })).toBe(true);
      expect(await h.driver.steps.load(job.runId)).toEqual(steps.slice(0, 2));
      expect(await h.row(job.id)).toMatchObject({ state: 'ready', attempts: 0 });
    },
  },
  {
    group,
    name: 'remove deletes a row that is not running, with its steps; a running row is refused',
    async run(h) {
      const job = await h.running();
      await saveStep(h, job, stepRecord('s', 0, h.driver.now()));
      expect(await h.introspect.remove(job.id), 'running').toBe(false);
      await h.driver.ack(job.id, job.claim);
      expect(await h.introspect.remove(job.id)).toBe(true);
      expect(await h.introspect.get(job.id)).toBeNull();
      expect(await h.driver.steps.load(job.runId)).toEqual([]);
      expect(await h.introspect.remove(job.id), 'already gone').toBe(false);
      const queued = await h.enqueue(h.queue, { idempotencyKey: 'k' });
      expect(await h.introspect.remove(queued.id)).toBe(true);
      expect((await h.enqueue(h.queue, { idempotencyKey: 'k' })).deduped, 'its key is free').toBe(false);
    },
  },
  {
    group,
    name: 'promote makes a delayed or suspended row due now; other states are refused',
    async run(h) {
      const delayed = await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS });
      expect(await h.introspect.promote(delayed.id)).toBe(true);
      expect((await h.claimOne(h.queue)).id).toBe(delayed.id);
      const job = await h.running();
      expect(await h.introspect.promote(job.id), 'running').toBe(false);
      await h.driver.nack(job.id, job.claim, {
        kind: 'suspend',
        runAt: h.driver.now() + LONG_MS,
        waitFor: 'never',
      });
      expect(await h.introspect.promote(job.id)).toBe(true);
      expect((await h.claimOne(h.queue)).id).toBe(job.id);
      const ready = await h.enqueue(h.queue);
      expect(await h.introspect.promote(ready.id), 'ready').toBe(false);
      expect(await h.introspect.promote(h.unique('absent')), 'absent').toBe(false);
    },
  },
  {
    group,
    name: 'pause and resume are idempotent and pausedQueues lists paused queues',
    async run(h) {
      const other = h.unique('q');
      await h.introspect.pause(h.queue);
      await h.introspect.pause(h.queue);
      await h.introspect.pause(other);
      const paused = await h.introspect.pausedQueues();
      expect(paused.filter((queue) => queue === h.queue || queue === other).sort()).toEqual(
        [h.queue, other].sort(),
      );
      await h.introspect.resume(h.queue);
      await h.introspect.resume(h.queue);
      const after = await h.introspect.pausedQueues();
      expect(after).not.toContain(h.queue);
      expect(after).toContain(other);
    },
  },
  {
    group,
    name: 'resolveStep settles a started once-step: ran records it completed, not ran deletes it',
    async run(h) {
      const job = await h.running();
      const at = h.driver.now();
      const started = { status: 'started' as const, output: null, completedAt: null };
      await saveStep(h, job, stepRecord('charge', 0, at, started));
      await saveStep(h, job, stepRecord('email', 1, at, started));
      await saveStep(h, job, stepRecord('done-already', 2, at));
      await h.driver.nack(job.id, job.claim, { kind: 'dead', error: failure, stopReason: 'terminal' });
      expect(await h.introspect.resolveStep(job.id, 'charge', { ran: true, output: { id: 'ch_9' } })).toBe(
        true,
      );
      expect(await h.introspect.resolveStep(job.id, 'email', { ran: false })).toBe(true);
      expect(await h.introspect.resolveStep(job.id, 'done-already', { ran: false }), 'not started').toBe(
        false,
      );
      expect(await h.introspect.resolveStep(job.id, 'charge', { ran: false }), 'now completed').toBe(false);
      const steps = await h.driver.steps.load(job.runId);
      expect(steps.map((step) => [step.name, step.status])).toEqual([
        ['charge', 'completed'],
        ['done-already', 'completed'],
      ]);
      expect(steps[0]?.output).toEqual({ id: 'ch_9' });
    },
  },
  {
    group,
    name: 'workers are listed within their TTL, replaced on report, and removed on request',
    async run(h) {
      const at = h.driver.now();
      const info = (id: string, inFlight: number): WorkerInfo => ({
        id,
        queues: [h.queue],
        concurrency: 4,
        inFlight,
        host: 'host-1',
        pid: 4242,
        startedAt: at,
        lastSeenAt: at,
      });
      const [short, long, gone] = [h.unique('w-short'), h.unique('w-long'), h.unique('w-gone')];
      await h.introspect.reportWorker(info(short, 1), h.tickMs);
      await h.introspect.reportWorker(info(long, 1), LONG_MS);
      await h.introspect.reportWorker(info(long, 3), LONG_MS);
      await h.introspect.reportWorker(info(gone, 0), LONG_MS);
      await h.introspect.removeWorker(gone);
      const mine = async () =>
        (await h.introspect.workers()).filter((worker) => [short, long, gone].includes(worker.id));
      const listed = await mine();
      expect(listed.find((worker) => worker.id === long)).toEqual(info(long, 3));
      expect(listed.map((worker) => worker.id)).not.toContain(gone);
      await h.advance(h.tickMs * 2);
      expect((await mine()).map((worker) => worker.id)).toEqual([long]);
    },
  },
  {
    group,
    name: 'purge deletes done rows finished before the cutoff, with their steps; dead and live rows stay',
    async run(h) {
      await h.enqueue(h.queue);
      await h.enqueue(h.queue);
      const live = await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS });
      const [done, dead] = await h.claim(h.queue, { limit: 2 });
      await saveStep(h, done!, stepRecord('s', 0, h.driver.now()));
      await h.driver.ack(done!.id, done!.claim);
      await h.driver.nack(dead!.id, dead!.claim, { kind: 'dead', error: failure, stopReason: 'terminal' });
      const finishedAt = (await h.row(done!.id)).finishedAt!;
      await h.introspect.purge({ doneBefore: finishedAt - 1_000 });
      expect(await h.introspect.get(done!.id), 'finished after the cutoff').not.toBeNull();
      await h.advance(2);
      expect(await h.introspect.purge({ doneBefore: h.driver.now() })).toBeGreaterThanOrEqual(1);
      expect(await h.introspect.get(done!.id)).toBeNull();
      expect(await h.driver.steps.load(done!.runId)).toEqual([]);
      expect((await h.row(dead!.id)).state).toBe('dead');
      expect((await h.row(live.id)).state).toBe('delayed');
    },
  },
];
