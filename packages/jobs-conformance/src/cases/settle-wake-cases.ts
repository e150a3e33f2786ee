import type { SettledJobs } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'wake';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Subscribes to `h.driver.wake.subscribeSettled`; answers what was heard and the unsubscribe. */
export function listenSettled(h: DriverHarness) {
  const subscribe = h.driver.wake?.subscribeSettled;
  expect(subscribe, 'driver.wake.subscribeSettled (the wake group requires the settle wake)').toBeDefined();
  const heard: SettledJobs[] = [];
  const unsubscribe = subscribe!.call(h.driver.wake, (jobs) => heard.push(jobs));
  return { heard, unsubscribe };
}

/** Whether a settle wake named `id`, or was a bare marker (which covers every job). */
const covers = (heard: readonly SettledJobs[], id: string): boolean =>
  heard.some((jobs) => jobs === null || jobs.includes(id));

/** Waits up to 3 s of real time for a settle wake covering `id`. */
async function heardWithin(heard: readonly SettledJobs[], id: string): Promise<boolean> {
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline && !covers(heard, id)) await sleep(10);
  return covers(heard, id);
}

/**
 * Acks rows started through `h` on a warm-up queue until a settle wake names one, for up to 3 s (a
 * backend may need a round trip before a new settle subscription is live). Answers whether one was
 * heard. (`h` may be another instance's harness: the peer cases warm up across processes.)
 */
export async function ackUntilHeard(h: DriverHarness, heard: readonly SettledJobs[]): Promise<boolean> {
  const deadline = Date.now() + 3_000;
  const queue = h.unique('q-settle-warmup');
  while (Date.now() < deadline) {
    const job = await h.started(queue);
    expect(await h.driver.ack(job.id, job.claim, { ok: true })).toBe(true);
    const attemptEnds = Math.min(deadline, Date.now() + 250);
    while (Date.now() < attemptEnds) {
      if (covers(heard, job.id)) return true;
      await sleep(10);
    }
  }
  return false;
}

/** The settle wake (`driver.wake.subscribeSettled`), which `awaitResult` in any process hears. */
export const settleWakeCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a settle subscriber hears the id of an acked job, and an unsubscribed one hears nothing more',
    async run(h) {
      const gone = listenSettled(h);
      const probe = listenSettled(h);
      try {
        expect(await ackUntilHeard(h, probe.heard), 'the settle listener is live').toBe(true);
        gone.unsubscribe();
        gone.heard.length = 0;
        const job = await h.started();
        expect(await h.driver.ack(job.id, job.claim, 'done')).toBe(true);
        expect(await heardWithin(probe.heard, job.id), `a settle wake for ${job.id}`).toBe(true);
        expect(gone.heard, 'nothing after the unsubscribe').toEqual([]);
      } finally {
        probe.unsubscribe();
      }
    },
  },
  {
    group,
    name: 'a settle subscriber hears a dead-lettered and a cancelled job, and no settle that was fenced out',
    async run(h) {
      const { heard, unsubscribe } = listenSettled(h);
      try {
        expect(await ackUntilHeard(h, heard), 'the settle listener is live').toBe(true);
        await sleep(50);
        heard.length = 0;
        const stale = await h.started();
        const dead = await h.started();
        expect(
          await h.driver.nack(dead.id, dead.claim, {
            kind: 'dead',
            error: { code: 'X_TEST', message: 'boom' },
            stopReason: 'terminal',
          }),
        ).toBe(true);
        const cancelled = await h.enqueue(h.queue);
        expect(await h.introspect.cancel(cancelled.id, 'not needed')).toBe(true);
        expect(await heardWithin(heard, dead.id), `a settle wake for the dead ${dead.id}`).toBe(true);
        expect(
          await heardWithin(heard, cancelled.id),
          `a settle wake for the cancelled ${cancelled.id}`,
        ).toBe(true);
        expect(await h.driver.ack(stale.id, { ...stale.claim, token: 'forged' })).toBe(false);
        await sleep(100);
        expect(
          heard.some((jobs) => jobs?.includes(stale.id) === true),
          'a fenced-out ack is no settle',
        ).toBe(false);
      } finally {
        unsubscribe();
      }
    },
  },
];
