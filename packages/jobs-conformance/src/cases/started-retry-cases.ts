import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const error = { code: 'E_FLAKY', message: 'the upstream timed out' };

/**
 * An operator's retry of a dead job starts it afresh from the retry's instant: it is due then (not
 * at the runAt it died with) and counts its attempts from zero again, also when they really
 * started (a dead letter of claims that never started counts nothing, so it cannot tell a reset
 * from none): the retried row reads attempts 0, its next claim is attempt 1, and its next start
 * is granted though the row died at `maxAttempts`, and counts exactly one.
 */
export const startedRetryCases: readonly JobDriverCase[] = [
  {
    group: 'introspect',
    name: "an operator's retry makes a dead row due at the retry, not at its old runAt: a row due since before is claimed first, the old finish cleared",
    async run(h) {
      const { id } = await h.enqueue(h.queue);
      const job = await h.claimOne(h.queue);
      expect(await h.driver.start(id, job.claim, LONG_MS)).toBe(true);
      expect(await h.driver.nack(id, job.claim, { kind: 'dead', error, stopReason: 'terminal' })).toBe(true);
      await h.advance(h.tickMs * 2);
      const waiting = await h.enqueue(h.queue);
      await h.advance(h.tickMs * 2);
      const before = h.driver.now();
      expect(await h.introspect.retry(id)).toBe(true);
      const retried = await h.row(id);
      expect(retried).toMatchObject({ state: 'ready', attempts: 0, finishedAt: null, stopReason: null });
      expect(retried.runAt, 'due at the retry').toBeGreaterThanOrEqual(before - 25);
      expect(retried.runAt, 'later than the row waiting since before').toBeGreaterThan(
        (await h.row(waiting.id)).runAt,
      );
      const claimed = await h.claim(h.queue, { limit: 2 });
      expect(
        claimed.map((row) => row.id),
        'the row due since before first',
      ).toEqual([waiting.id, id]);
    },
  },
  {
    group: 'attempts',
    name: "an operator's retry of a dead job whose attempts started resets its count: the next start is attempt 1 and is granted",
    async run(h) {
      const { id } = await h.enqueue(h.queue, { maxAttempts: 2 });
      const first = await h.claimOne(h.queue);
      expect(await h.driver.start(id, first.claim, LONG_MS)).toBe(true);
      expect(await h.driver.nack(id, first.claim, { kind: 'retry', runAt: h.driver.now(), error })).toBe(
        true,
      );
      const second = await h.claimOne(h.queue);
      expect(second).toMatchObject({ id, attempt: 2 });
      expect(await h.driver.start(id, second.claim, LONG_MS)).toBe(true);
      expect(
        await h.driver.nack(id, second.claim, { kind: 'dead', error, stopReason: 'attempts-exhausted' }),
      ).toBe(true);
      expect(await h.row(id), 'two attempts started, then dead').toMatchObject({
        state: 'dead',
        attempts: 2,
      });

      expect(await h.introspect.retry(id)).toBe(true);
      expect(await h.row(id), 'the retry resets the count').toMatchObject({ state: 'ready', attempts: 0 });
      const third = await h.claimOne(h.queue);
      expect(third, 'the next claim is the first attempt again').toMatchObject({ id, attempt: 1 });
      expect(await h.driver.start(id, third.claim, LONG_MS), 'the next start is granted').toBe(true);
      expect(await h.row(id), 'and counts exactly one').toMatchObject({ state: 'running', attempts: 1 });
      expect(await h.driver.nack(id, third.claim, { kind: 'retry', runAt: h.driver.now(), error })).toBe(
        true,
      );
      const fourth = await h.claimOne(h.queue);
      expect(fourth, 'a second attempt still fits in maxAttempts').toMatchObject({ id, attempt: 2 });
      expect(await h.driver.start(id, fourth.claim, LONG_MS)).toBe(true);
      expect(await h.driver.ack(id, fourth.claim)).toBe(true);
      expect(await h.row(id)).toMatchObject({ state: 'done', attempts: 2 });
    },
  },
];
