import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'nack';
const error = { code: 'E_FLAKY', message: 'the upstream timed out' };

/** nack: retry, release, suspend (by time and by event) and dead. */
export const nackCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'retry at a future time: delayed with lastError, the attempt counted, claimable after',
    async run(h) {
      const job = await h.started();
      const runAt = h.driver.now() + h.tickMs;
      expect(await h.driver.nack(job.id, job.claim, { kind: 'retry', runAt, error })).toBe(true);
      expect(await h.row(job.id)).toMatchObject({ state: 'delayed', attempts: 1, runAt, lastError: error });
      expect(await h.claim(h.queue), 'not before runAt').toHaveLength(0);
      await h.advance(h.tickMs * 2);
      const again = await h.claimOne(h.queue);
      expect(again).toMatchObject({ id: job.id, attempt: 2 });
    },
  },
  {
    group,
    name: 'retry at a time already passed: ready at once',
    async run(h) {
      const job = await h.started();
      expect(
        await h.driver.nack(job.id, job.claim, { kind: 'retry', runAt: h.driver.now() - 1, error }),
      ).toBe(true);
      expect((await h.row(job.id)).state).toBe('ready');
      expect((await h.claimOne(h.queue)).attempt).toBe(2);
    },
  },
  {
    group,
    name: 'release hands the row back with its attempt uncounted',
    async run(h) {
      const job = await h.started();
      expect(await h.driver.nack(job.id, job.claim, { kind: 'release' })).toBe(true);
      expect(await h.row(job.id)).toMatchObject({ state: 'ready', attempts: 0 });
      expect((await h.claimOne(h.queue)).attempt).toBe(1);
    },
  },
  {
    group,
    name: 'release with a future runAt: delayed until then, uncounted',
    async run(h) {
      const job = await h.started();
      const runAt = h.driver.now() + LONG_MS;
      expect(await h.driver.nack(job.id, job.claim, { kind: 'release', runAt })).toBe(true);
      expect(await h.row(job.id)).toMatchObject({ state: 'delayed', attempts: 0, runAt });
      expect(await h.claim(h.queue)).toHaveLength(0);
    },
  },
  {
    group,
    name: 'suspend until a time: suspended, uncounted, claimable once the time passes',
    async run(h) {
      const job = await h.started();
      const runAt = h.driver.now() + h.tickMs;
      expect(await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt })).toBe(true);
      expect(await h.row(job.id)).toMatchObject({ state: 'suspended', attempts: 0, runAt, waitingFor: null });
      expect(await h.claim(h.queue), 'not before runAt').toHaveLength(0);
      await h.advance(h.tickMs * 2);
      expect(await h.claimOne(h.queue)).toMatchObject({ id: job.id, attempt: 1 });
    },
  },
  {
    group,
    name: 'suspend waiting for an event: events.publish of that event makes it due, another event does not',
    async run(h) {
      const job = await h.started();
      const event = h.unique('order.paid');
      const runAt = h.driver.now() + LONG_MS;
      expect(await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt, waitFor: event })).toBe(true);
      expect(await h.row(job.id)).toMatchObject({ state: 'suspended', attempts: 0, waitingFor: event });
      await h.driver.events.publish(h.unique('other.event'), {}, { ttlMs: LONG_MS });
      expect(await h.claim(h.queue), 'an unrelated event wakes nothing').toHaveLength(0);
      await h.driver.events.publish(event, { orderId: 1 }, { ttlMs: LONG_MS });
      expect(await h.claimOne(h.queue)).toMatchObject({ id: job.id, attempt: 1 });
    },
  },
  {
    group,
    name: 'dead: dead-lettered with lastError and stopReason, the attempt counted, never claimed again',
    async run(h) {
      const job = await h.started();
      const nacked = await h.driver.nack(job.id, job.claim, {
        kind: 'dead',
        error,
        stopReason: 'attempts-exhausted',
      });
      expect(nacked).toBe(true);
      const row = await h.row(job.id);
      expect(row).toMatchObject({
        state: 'dead',
        attempts: 1,
        lastError: error,
        stopReason: 'attempts-exhausted',
      });
      expect(row.finishedAt).not.toBeNull();
      await h.advance(h.tickMs);
      expect(await h.claim(h.queue)).toHaveLength(0);
    },
  },
  {
    group,
    name: 'suspend waiting for an event published since the attempt started: due at once, its queue claimable',
    async run(h) {
      const event = h.unique('order.paid');
      const earlier = await h.started();
      await h.advance(h.tickMs);
      await h.driver.events.publish(h.unique('other.event'), {}, { ttlMs: LONG_MS });
      await h.driver.events.publish(event, { orderId: 1 }, { ttlMs: LONG_MS });
      const runAt = h.driver.now() + LONG_MS;
      expect(await h.driver.nack(earlier.id, earlier.claim, { kind: 'suspend', runAt, waitFor: event })).toBe(
        true,
      );
      expect(await h.row(earlier.id)).toMatchObject({ state: 'suspended', waitingFor: event });
      expect(await h.claimOne(h.queue), 'the event the run may have missed').toMatchObject({
        id: earlier.id,
      });

      const other = h.unique('q');
      await h.advance(h.tickMs);
      const later = await h.started(other);
      const unrelated = h.unique('order.paid');
      expect(await h.driver.nack(later.id, later.claim, { kind: 'suspend', runAt, waitFor: unrelated })).toBe(
        true,
      );
      expect(await h.claim(other), 'no event of that name since the start').toHaveLength(0);
      expect(
        await h.driver.nack(later.id, later.claim, { kind: 'suspend', runAt, waitFor: event }),
        'fenced: already suspended',
      ).toBe(false);
    },
  },
  {
    group,
    name: 'suspend waiting for an event published after the start in the same clock tick: due at once',
    async run(h) {
      const event = h.unique('order.paid');
      const job = await h.started();
      // No advance: under a clock that does not move the publish shares the start's tick.
      await h.driver.events.publish(event, { orderId: 1 }, { ttlMs: LONG_MS });
      const runAt = h.driver.now() + LONG_MS;
      expect(await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt, waitFor: event })).toBe(true);
      expect(await h.claimOne(h.queue), 'the event the run may have missed').toMatchObject({ id: job.id });
    },
  },
  {
    group,
    name: 'suspend waiting for an event published before the attempt started stays suspended',
    async run(h) {
      const event = h.unique('order.paid');
      await h.driver.events.publish(event, { orderId: 1 }, { ttlMs: LONG_MS });
      await h.advance(h.tickMs);
      const job = await h.started();
      const runAt = h.driver.now() + LONG_MS;
      expect(await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt, waitFor: event })).toBe(true);
      expect(await h.claim(h.queue), 'the run looked after that event was published').toHaveLength(0);
    },
  },
];
