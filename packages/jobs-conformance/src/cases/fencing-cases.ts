import type { JobDetail } from '@x/jobs-core';
import type { ClaimedJob } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { stepRecord } from './step-records.js';

const group = 'fencing';

/**
 * A row claimed twice by the same worker id: the first claim's lease lapsed and the row was
 * reclaimed, so `stale` differs from `fresh` only in its token. Fencing must be on the token.
 */
async function reclaimed(
  h: DriverHarness,
): Promise<{ stale: ClaimedJob; fresh: ClaimedJob; before: JobDetail }> {
  const stale = await h.running(h.queue, { workerId: 'same-worker', visibilityTimeoutMs: h.tickMs });
  await h.advance(h.tickMs * 2);
  const fresh = await h.claimOne(h.queue, { workerId: 'same-worker' });
  expect(fresh.id).toBe(stale.id);
  return { stale, fresh, before: await h.row(fresh.id) };
}

/** Asserts the row is exactly as it was. */
async function unchanged(h: DriverHarness, before: JobDetail): Promise<void> {
  expect(await h.row(before.id)).toEqual(before);
}

const forged = (job: ClaimedJob) => ({ workerId: job.claim.workerId, token: `${job.claim.token}-forged` });

/** Every settle lands only under the current claim token. */
export const fencingCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'ack with a stale or forged claim answers false and changes nothing',
    async run(h) {
      const { stale, fresh, before } = await reclaimed(h);
      expect(await h.driver.ack(stale.id, stale.claim, { late: true })).toBe(false);
      expect(await h.driver.ack(fresh.id, forged(fresh), { forged: true })).toBe(false);
      await unchanged(h, before);
      expect(await h.driver.ack(fresh.id, fresh.claim)).toBe(true);
      expect(await h.driver.ack(fresh.id, fresh.claim), 'a second ack').toBe(false);
      expect(await h.driver.ack(h.unique('absent'), fresh.claim), 'an unknown id').toBe(false);
    },
  },
  {
    group,
    name: 'nack with a stale or forged claim answers false and changes nothing',
    async run(h) {
      const { stale, fresh, before } = await reclaimed(h);
      const error = { code: 'E_LATE', message: 'late' };
      expect(
        await h.driver.nack(stale.id, stale.claim, { kind: 'dead', error, stopReason: 'terminal' }),
      ).toBe(false);
      expect(
        await h.driver.nack(stale.id, stale.claim, { kind: 'retry', runAt: h.driver.now(), error }),
      ).toBe(false);
      expect(await h.driver.nack(stale.id, stale.claim, { kind: 'release' })).toBe(false);
      expect(await h.driver.nack(fresh.id, forged(fresh), { kind: 'suspend', runAt: h.driver.now() })).toBe(
        false,
      );
      await unchanged(h, before);
      expect(await h.driver.nack(fresh.id, fresh.claim, { kind: 'release' })).toBe(true);
    },
  },
  {
    group,
    name: 'heartbeat with a stale or forged claim answers false and changes nothing',
    async run(h) {
      const { stale, fresh, before } = await reclaimed(h);
      expect(await h.driver.heartbeat(stale.id, stale.claim, h.tickMs * 100)).toBe(false);
      expect(await h.driver.heartbeat(fresh.id, forged(fresh), h.tickMs * 100)).toBe(false);
      await unchanged(h, before);
      expect(await h.driver.heartbeat(fresh.id, fresh.claim, h.tickMs * 100)).toBe(true);
    },
  },
  {
    group,
    name: 'progress with a stale or forged claim answers false and changes nothing',
    async run(h) {
      const { stale, fresh, before } = await reclaimed(h);
      expect(await h.driver.progress(stale.id, stale.claim, { current: 5, total: 10 })).toBe(false);
      expect(await h.driver.progress(fresh.id, forged(fresh), { current: 6, total: 10 })).toBe(false);
      await unchanged(h, before);
      expect(await h.driver.progress(fresh.id, fresh.claim, { current: 7, total: null })).toBe(true);
      expect((await h.row(fresh.id)).progress).toEqual({ current: 7, total: null });
    },
  },
  {
    group,
    name: 'steps.save with a stale or forged claim answers false and writes nothing',
    async run(h) {
      const { stale, fresh, before } = await reclaimed(h);
      const step = stepRecord('charge', 0, h.driver.now(), { output: { charged: true } });
      expect(
        await h.driver.steps.save({ jobId: stale.id, runId: stale.runId, claim: stale.claim }, step),
      ).toBe(false);
      expect(
        await h.driver.steps.save({ jobId: fresh.id, runId: fresh.runId, claim: forged(fresh) }, step),
      ).toBe(false);
      expect(await h.driver.steps.load(fresh.runId)).toEqual([]);
      await unchanged(h, before);
      expect(
        await h.driver.steps.save({ jobId: fresh.id, runId: fresh.runId, claim: fresh.claim }, step),
      ).toBe(true);
      expect(await h.driver.steps.load(fresh.runId)).toHaveLength(1);
    },
  },
  {
    group,
    name: 'settles after the row is settled answer false',
    async run(h) {
      const job = await h.running();
      expect(await h.driver.ack(job.id, job.claim, 1)).toBe(true);
      const before = await h.row(job.id);
      const fence = { jobId: job.id, runId: job.runId, claim: job.claim };
      expect(await h.driver.nack(job.id, job.claim, { kind: 'release' })).toBe(false);
      expect(await h.driver.heartbeat(job.id, job.claim, 1000)).toBe(false);
      expect(await h.driver.progress(job.id, job.claim, { current: 1, total: 1 })).toBe(false);
      const step = stepRecord('s', 0, 0, { status: 'started', output: null, completedAt: null });
      expect(await h.driver.steps.save(fence, step)).toBe(false);
      await unchanged(h, before);
    },
  },
];
