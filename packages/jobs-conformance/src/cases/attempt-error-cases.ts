import {
  ATTEMPT_ERROR_LIMITS,
  type AttemptFailure,
  attemptFailureOf,
  type ClaimedJob,
} from '@x/jobs-core/driver';
import { expect } from 'vitest';
import { type DriverHarness, LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'attempt errors';
const lastError = { code: 'E_UPSTREAM', message: 'upstream returned 500' };

/** A realistic record: an error with a code, a stack and a cause, thrown by step `step`. */
function failureOf(attempt: number, step: string | null, message = `upstream returned 500 (try ${attempt})`) {
  const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  const error = Object.assign(new Error(message, { cause }), { code: 'E_UPSTREAM' });
  return attemptFailureOf(error, { attempt, step });
}

/** Claims the row again (due now), starts it, and answers the claim. */
async function startAgain(h: DriverHarness): Promise<ClaimedJob> {
  const job = await h.claimOne(h.queue);
  expect(await h.driver.start(job.id, job.claim, LONG_MS)).toBe(true);
  return job;
}

/** A retry nack due at once, carrying `failure`. */
async function retryWith(h: DriverHarness, job: ClaimedJob, failure: AttemptFailure): Promise<void> {
  const runAt = h.driver.now() - 1;
  expect(await h.driver.nack(job.id, job.claim, { kind: 'retry', runAt, error: lastError, failure })).toBe(
    true,
  );
}

/** Every failed attempt's record, kept with the row within its retention, the same on every driver. */
export const attemptErrorCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'failed attempts are listed oldest first with class, code, message, stack, causes, step, attempt and when',
    async run(h) {
      const first = await h.started();
      const before = h.driver.now();
      const one = failureOf(1, 'charge');
      await retryWith(h, first, one);
      const second = await startAgain(h);
      const two = failureOf(2, null, 'gave up');
      expect(
        await h.driver.nack(second.id, second.claim, {
          kind: 'dead',
          error: lastError,
          stopReason: 'attempts-exhausted',
          failure: two,
        }),
      ).toBe(true);
      const after = h.driver.now();
      const row = await h.row(first.id);
      expect(row.lastError, 'lastError is kept as before').toMatchObject(lastError);
      expect(row.errors.map(({ at: _at, ...failure }) => failure)).toEqual([one, two]);
      expect(one).toMatchObject({ name: 'Error', code: 'E_UPSTREAM', step: 'charge', attempt: 1 });
      expect(one.causes).toMatchObject([{ name: 'Error', code: 'ECONNRESET', message: 'socket hang up' }]);
      expect(one.stack).toContain('upstream returned 500');
      const [at1, at2] = row.errors.map((error) => error.at);
      // Stamped by the backend's clock, which driver.now() tracks (within a second of skew).
      expect(at1).toBeGreaterThanOrEqual(before - 1_000);
      expect(at2).toBeLessThanOrEqual(after + 1_000);
      expect(at2).toBeGreaterThanOrEqual(at1 as number);
    },
  },
  {
    group,
    name: 'only retry and dead nacks that carry a failure record one; release, suspend and a stale claim record none',
    async run(h) {
      const job = await h.started();
      expect(await h.driver.nack(job.id, job.claim, { kind: 'release' })).toBe(true);
      const again = await startAgain(h);
      expect(await h.driver.nack(again.id, again.claim, { kind: 'suspend', runAt: h.driver.now() - 1 })).toBe(
        true,
      );
      const third = await startAgain(h);
      await retryWith(h, third, failureOf(1, null));
      expect(
        await h.driver.nack(third.id, third.claim, {
          kind: 'retry',
          runAt: h.driver.now(),
          error: lastError,
          failure: failureOf(9, null),
        }),
        'a stale claim is fenced out',
      ).toBe(false);
      const fourth = await startAgain(h);
      await retryWith(h, fourth, undefined as unknown as AttemptFailure);
      expect((await h.row(job.id)).errors.map((error) => error.attempt)).toEqual([1]);
    },
  },
  {
    group,
    name: `keeps the newest ${ATTEMPT_ERROR_LIMITS.perJob} records of a job, oldest first`,
    async run(h) {
      const total = ATTEMPT_ERROR_LIMITS.perJob + 2;
      await h.enqueue(h.queue, { maxAttempts: total });
      let job = await startAgain(h);
      for (let attempt = 1; attempt <= total; attempt++) {
        await retryWith(h, job, failureOf(attempt, `step-${attempt}`));
        if (attempt < total) job = await startAgain(h);
      }
      const errors = (await h.row(job.id)).errors;
      expect(errors.map((error) => error.attempt)).toEqual(
        Array.from({ length: ATTEMPT_ERROR_LIMITS.perJob }, (_, i) => i + 3),
      );
      expect(errors[0]?.step).toBe('step-3');
    },
  },
  {
    group,
    name: 'an operator retry keeps them; remove deletes them with the row (a new row with its id has none)',
    async run(h) {
      const job = await h.started();
      const failure = failureOf(1, 'charge');
      expect(
        await h.driver.nack(job.id, job.claim, {
          kind: 'dead',
          error: lastError,
          stopReason: 'terminal',
          failure,
        }),
      ).toBe(true);
      expect(await h.introspect.retry(job.id)).toBe(true);
      expect((await h.row(job.id)).errors).toMatchObject([failure]);
      const again = await startAgain(h);
      expect(
        await h.driver.nack(again.id, again.claim, {
          kind: 'dead',
          error: lastError,
          stopReason: 'terminal',
          failure,
        }),
      ).toBe(true);
      expect(await h.introspect.remove(job.id)).toBe(true);
      await h.enqueue(h.queue, { id: job.id });
      expect((await h.row(job.id)).errors).toEqual([]);
    },
  },
  {
    group,
    name: 'purge deletes them with the done row (a new row with its id has none)',
    async run(h) {
      const job = await h.started();
      await retryWith(h, job, failureOf(1, 'charge'));
      const again = await startAgain(h);
      expect(await h.driver.ack(again.id, again.claim)).toBe(true);
      expect((await h.row(job.id)).errors, 'a done row keeps its failed attempts').toHaveLength(1);
      await h.advance(2);
      expect(await h.introspect.purge({ doneBefore: h.driver.now() })).toBeGreaterThanOrEqual(1);
      expect(await h.introspect.get(job.id)).toBeNull();
      await h.enqueue(h.queue, { id: job.id });
      expect((await h.row(job.id)).errors).toEqual([]);
    },
  },
];
