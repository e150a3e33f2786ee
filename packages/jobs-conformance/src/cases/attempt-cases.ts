import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'attempts';
const error = { code: 'E_FLAKY', message: 'the upstream timed out' };

/**
 * Attempts count bodies that started: a claim counts nothing, `start` counts one (fenced, once per
 * claim), release and suspend hand a started attempt back, retry and dead keep it. A claim says
 * whether it took its row from a lapsed lease (`lapsed`: the executor awaits such a row's start).
 */
export const attemptCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a claim counts no attempt: the row keeps attempts 0 and startedAt null, the claim says attempt 1',
    async run(h) {
      const job = await h.running();
      expect(job.attempt).toBe(1);
      expect(await h.row(job.id)).toMatchObject({ state: 'running', attempts: 0, startedAt: null });
    },
  },
  {
    group,
    name: 'start counts one attempt, stamps startedAt and extends the lease to now + visibilityTimeoutMs',
    async run(h) {
      const job = await h.running(h.queue, { visibilityTimeoutMs: h.tickMs });
      const before = h.driver.now();
      expect(await h.driver.start(job.id, job.claim, LONG_MS)).toBe(true);
      const row = await h.row(job.id);
      expect(row).toMatchObject({ state: 'running', attempts: 1 });
      expect(row.startedAt).toBeGreaterThanOrEqual(before - 25);
      expect(row.leaseExpiresAt).toBeGreaterThanOrEqual(before + LONG_MS - 25);
      await h.advance(h.tickMs * 2);
      expect(await h.claim(h.queue, { workerId: 'other' }), 'the start extended the lease').toHaveLength(0);
      expect(await h.driver.ack(job.id, job.claim)).toBe(true);
      expect(await h.row(job.id)).toMatchObject({ state: 'done', attempts: 1 });
    },
  },
  {
    group,
    name: 'start is fenced: a stale token, a forged token and a second start answer false and count nothing',
    async run(h) {
      const stale = await h.running(h.queue, { workerId: 'w', visibilityTimeoutMs: h.tickMs });
      await h.advance(h.tickMs * 2);
      const fresh = await h.claimOne(h.queue, { workerId: 'w' });
      expect(fresh.id).toBe(stale.id);
      expect(await h.driver.start(stale.id, stale.claim, LONG_MS), 'stale token').toBe(false);
      expect(
        await h.driver.start(fresh.id, { workerId: 'w', token: `${fresh.claim.token}-forged` }, LONG_MS),
        'forged token',
      ).toBe(false);
      expect((await h.row(fresh.id)).attempts).toBe(0);
      expect(await h.driver.start(fresh.id, fresh.claim, LONG_MS)).toBe(true);
      expect(await h.driver.start(fresh.id, fresh.claim, LONG_MS), 'second start').toBe(false);
      expect((await h.row(fresh.id)).attempts).toBe(1);
      expect(await h.driver.ack(fresh.id, fresh.claim)).toBe(true);
      expect(await h.driver.start(fresh.id, fresh.claim, LONG_MS), 'after the settle').toBe(false);
      expect(await h.row(fresh.id)).toMatchObject({ state: 'done', attempts: 1 });
    },
  },
  {
    group,
    name: 'a lapsed claim that never started is reclaimed with the same attempt number',
    async run(h) {
      const first = await h.running(h.queue, { workerId: 'first', visibilityTimeoutMs: h.tickMs });
      await h.advance(h.tickMs * 2);
      const second = await h.claimOne(h.queue, { workerId: 'second' });
      expect(second).toMatchObject({ id: first.id, attempt: 1 });
      expect(second.claim.token).not.toBe(first.claim.token);
      expect((await h.row(first.id)).attempts).toBe(0);
    },
  },
  {
    group,
    name: 'a lapsed attempt that started comes back as the next attempt',
    async run(h) {
      const first = await h.started(h.queue, { workerId: 'first', visibilityTimeoutMs: h.tickMs });
      await h.advance(h.tickMs * 2);
      const second = await h.claimOne(h.queue, { workerId: 'second' });
      expect(second).toMatchObject({ id: first.id, attempt: 2 });
      expect(await h.driver.start(second.id, second.claim, LONG_MS)).toBe(true);
      expect((await h.row(first.id)).attempts).toBe(2);
    },
  },
  {
    group,
    name: 'a claim says whether it took the row from a lapsed lease: only a running row whose lease lapsed is lapsed',
    async run(h) {
      const fresh = await h.started(h.queue, { workerId: 'first' });
      expect(fresh.lapsed, 'a fresh row').toBe(false);
      const past = h.driver.now() - 1;
      expect(await h.driver.nack(fresh.id, fresh.claim, { kind: 'retry', runAt: past, error })).toBe(true);
      const retried = await h.claimOne(h.queue, { workerId: 'first', visibilityTimeoutMs: h.tickMs });
      expect(retried, 'a retried row').toMatchObject({ id: fresh.id, attempt: 2, lapsed: false });
      expect(await h.driver.nack(retried.id, retried.claim, { kind: 'release' })).toBe(true);
      const released = await h.claimOne(h.queue, { workerId: 'first', visibilityTimeoutMs: h.tickMs });
      expect(released, 'a released row').toMatchObject({ id: fresh.id, lapsed: false });
      await h.advance(h.tickMs * 2);
      const unstarted = await h.claimOne(h.queue, { workerId: 'second', visibilityTimeoutMs: h.tickMs });
      expect(unstarted, 'a lapsed claim that never started').toMatchObject({ id: fresh.id, lapsed: true });
      expect(await h.driver.start(unstarted.id, unstarted.claim, h.tickMs)).toBe(true);
      await h.advance(h.tickMs * 2);
      const restarted = await h.claimOne(h.queue, { workerId: 'third' });
      expect(restarted, 'a lapsed attempt that started').toMatchObject({
        id: fresh.id,
        attempt: 3,
        lapsed: true,
      });

      const other = h.unique('q');
      const sleeper = await h.started(other);
      expect(await h.driver.nack(sleeper.id, sleeper.claim, { kind: 'suspend', runAt: past })).toBe(true);
      expect(await h.claimOne(other), 'a suspended row come due').toMatchObject({
        id: sleeper.id,
        lapsed: false,
      });
    },
  },
  {
    group,
    name: 'release and suspend after start hand the started attempt back',
    async run(h) {
      const released = await h.started();
      expect(await h.driver.nack(released.id, released.claim, { kind: 'release' })).toBe(true);
      expect(await h.row(released.id)).toMatchObject({ state: 'ready', attempts: 0 });
      expect((await h.claimOne(h.queue)).attempt).toBe(1);

      const other = h.unique('q');
      const suspended = await h.started(other);
      const runAt = h.driver.now() + LONG_MS;
      expect(await h.driver.nack(suspended.id, suspended.claim, { kind: 'suspend', runAt })).toBe(true);
      expect(await h.row(suspended.id)).toMatchObject({ state: 'suspended', attempts: 0 });
    },
  },
  {
    group,
    name: 'release and suspend of a claim that never started leave the earlier attempts counted',
    async run(h) {
      const first = await h.started();
      const past = h.driver.now() - 1;
      expect(await h.driver.nack(first.id, first.claim, { kind: 'retry', runAt: past, error })).toBe(true);
      const second = await h.claimOne(h.queue);
      expect(second).toMatchObject({ id: first.id, attempt: 2 });
      expect(await h.driver.nack(second.id, second.claim, { kind: 'release' })).toBe(true);
      expect(await h.row(first.id)).toMatchObject({ state: 'ready', attempts: 1 });
      const third = await h.claimOne(h.queue);
      expect(third.attempt).toBe(2);
      const runAt = h.driver.now() + LONG_MS;
      expect(await h.driver.nack(third.id, third.claim, { kind: 'suspend', runAt })).toBe(true);
      expect(await h.row(first.id)).toMatchObject({ state: 'suspended', attempts: 1 });
    },
  },
  {
    group,
    name: 'retry and dead after start keep the attempt; before start they count nothing',
    async run(h) {
      const retried = await h.started();
      const past = h.driver.now() - 1;
      expect(await h.driver.nack(retried.id, retried.claim, { kind: 'retry', runAt: past, error })).toBe(
        true,
      );
      expect(await h.row(retried.id)).toMatchObject({ state: 'ready', attempts: 1, lastError: error });
      const unstarted = await h.claimOne(h.queue);
      expect(unstarted.attempt).toBe(2);
      expect(await h.driver.nack(unstarted.id, unstarted.claim, { kind: 'retry', runAt: past, error })).toBe(
        true,
      );
      expect((await h.row(retried.id)).attempts, 'a retry that never started').toBe(1);

      const dead = await h.started(h.unique('q'));
      const stop = { kind: 'dead', error, stopReason: 'terminal' } as const;
      expect(await h.driver.nack(dead.id, dead.claim, stop)).toBe(true);
      expect(await h.row(dead.id)).toMatchObject({ state: 'dead', attempts: 1, stopReason: 'terminal' });
      const never = await h.running(h.unique('q'));
      expect(await h.driver.nack(never.id, never.claim, stop)).toBe(true);
      expect(await h.row(never.id)).toMatchObject({ state: 'dead', attempts: 0 });
    },
  },
  {
    group,
    name: 'a cancelled row cannot be started',
    async run(h) {
      const job = await h.running();
      expect(await h.introspect.cancel(job.id, 'operator')).toBe(true);
      expect(await h.driver.start(job.id, job.claim, LONG_MS)).toBe(false);
      expect(await h.row(job.id)).toMatchObject({ state: 'cancelled', attempts: 0 });
    },
  },
  {
    group,
    name: 'claim with start starts its first rows in claim order: counted, stamped, started; the rest count nothing',
    async run(h) {
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await h.enqueue(h.queue)).id);
      const before = h.driver.now();
      const jobs = await h.driver.claim({
        queues: [h.queue],
        limit: 3,
        workerId: 'w',
        visibilityTimeoutMs: LONG_MS,
        start: 2,
      });
      expect(jobs.map((job) => job.id)).toEqual(ids);
      expect(jobs.map((job) => job.started === true)).toEqual([true, true, false]);
      expect(jobs.map((job) => job.attempt)).toEqual([1, 1, 1]);
      const [first, , third] = jobs;
      const startedRow = await h.row(first!.id);
      expect(startedRow.attempts).toBe(1);
      expect(startedRow.startedAt).toBeGreaterThanOrEqual(before - 25);
      expect(await h.row(third!.id)).toMatchObject({ attempts: 0, startedAt: null });
      expect(await h.driver.start(first!.id, first!.claim, LONG_MS), 'already started').toBe(false);
      expect(await h.driver.start(third!.id, third!.claim, LONG_MS)).toBe(true);
      expect(await h.driver.nack(first!.id, first!.claim, { kind: 'release' })).toBe(true);
      expect((await h.row(first!.id)).attempts, 'a release hands a claim-started attempt back').toBe(0);
    },
  },
  {
    group,
    name: 'release and suspend of a later attempt hand back only that attempt',
    async run(h) {
      for (const kind of ['release', 'suspend'] as const) {
        const queue = h.unique('q');
        const first = await h.started(queue);
        expect(
          await h.driver.nack(first.id, first.claim, { kind: 'retry', runAt: h.driver.now(), error }),
        ).toBe(true);
        const second = await h.claimOne(queue);
        expect(await h.driver.start(second.id, second.claim, LONG_MS)).toBe(true);
        expect((await h.row(second.id)).attempts, kind).toBe(2);
        const options = kind === 'release' ? { kind } : { kind, runAt: h.driver.now() + LONG_MS };
        expect(await h.driver.nack(second.id, second.claim, options)).toBe(true);
        expect((await h.row(second.id)).attempts, `${kind} of attempt 2`).toBe(1);
      }
    },
  },
  {
    group,
    name: 'attempts never pass maxAttempts: neither start nor a starting claim counts a row at its cap',
    async run(h) {
      await h.enqueue(h.queue, { maxAttempts: 1 });
      const first = await h.claimOne(h.queue, { workerId: 'first', visibilityTimeoutMs: h.tickMs });
      expect(await h.driver.start(first.id, first.claim, h.tickMs)).toBe(true);
      expect((await h.row(first.id)).attempts).toBe(1);
      await h.advance(h.tickMs * 2);
      // The poison row's only attempt died with its process: a claim offers it again, past its cap.
      const [starting] = await h.driver.claim({
        queues: [h.queue],
        limit: 1,
        workerId: 'second',
        visibilityTimeoutMs: h.tickMs,
        start: 1,
      });
      expect(starting, 'the lapsed row is claimable').toMatchObject({
        id: first.id,
        attempt: 2,
        maxAttempts: 1,
      });
      expect(starting!.started ?? false, 'a starting claim does not start a row at its cap').toBe(false);
      expect((await h.row(first.id)).attempts).toBe(1);
      expect(await h.driver.start(first.id, starting!.claim, LONG_MS), 'start refuses a row at its cap').toBe(
        false,
      );
      expect((await h.row(first.id)).attempts).toBe(1);
      const dead = { code: 'X_JOB_MAX_ATTEMPTS', message: 'every attempt started, none settled' };
      expect(
        await h.driver.nack(first.id, starting!.claim, {
          kind: 'dead',
          error: dead,
          stopReason: 'attempts-exhausted',
        }),
      ).toBe(true);
      expect(await h.row(first.id)).toMatchObject({ state: 'dead', attempts: 1, maxAttempts: 1 });
    },
  },
];
