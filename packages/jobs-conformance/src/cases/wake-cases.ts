import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'wake';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Subscribes to `driver.wake`; answers the queues heard so far and the unsubscribe. */
export function listen(h: DriverHarness) {
  expect(h.driver.wake, 'driver.wake (pass wake: false when the backend has none)').toBeDefined();
  const queues: string[] = [];
  const unsubscribe = h.driver.wake!.subscribe((queue) => queues.push(queue));
  return { queues, unsubscribe };
}

/**
 * Enqueues a ready row on `queue` until `queues` hears it, for up to 3 s of real time (a wake is
 * delivered asynchronously, and a backend may need a round trip before a new subscription is
 * live, so the first rows may go unheard). Answers whether it was heard.
 */
export async function enqueueUntilHeard(
  h: DriverHarness,
  queue: string,
  queues: readonly string[],
): Promise<boolean> {
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    await h.enqueue(queue);
    const attemptEnds = Math.min(deadline, Date.now() + 250);
    while (Date.now() < attemptEnds) {
      if (queues.includes(queue)) return true;
      await sleep(10);
    }
  }
  return queues.includes(queue);
}

/** The push wake, for drivers that offer one. */
export const wakeCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a subscriber hears the queue of a newly ready row',
    async run(h) {
      const { queues, unsubscribe } = listen(h);
      try {
        expect(await enqueueUntilHeard(h, h.queue, queues)).toBe(true);
      } finally {
        unsubscribe();
      }
    },
  },
  {
    group,
    name: 'a subscriber hears every queue one enqueueMany made a row ready on',
    async run(h) {
      const { queues, unsubscribe } = listen(h);
      const other = h.unique('q-other');
      try {
        expect(await enqueueUntilHeard(h, h.unique('q-warmup'), queues), 'the listener is live').toBe(true);
        await h.driver.enqueueMany([h.request(h.queue), h.request(other), h.request(h.queue)]);
        const deadline = Date.now() + 3_000;
        while (Date.now() < deadline && !(queues.includes(h.queue) && queues.includes(other)))
          await sleep(10);
        expect(queues).toContain(h.queue);
        expect(queues).toContain(other);
      } finally {
        unsubscribe();
      }
    },
  },
  {
    group,
    name: 'an unsubscribed listener hears nothing more while another still does',
    async run(h) {
      const gone = listen(h);
      const probe = listen(h);
      try {
        expect(await enqueueUntilHeard(h, h.unique('q-warmup'), probe.queues), 'the probe is live').toBe(
          true,
        );
        gone.unsubscribe();
        expect(await enqueueUntilHeard(h, h.queue, probe.queues), 'the probe hears the queue').toBe(true);
        expect(gone.queues).not.toContain(h.queue);
      } finally {
        probe.unsubscribe();
      }
    },
  },
];
