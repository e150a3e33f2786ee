import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'wake';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `heard` in real time (a wake is delivered asynchronously) for up to `timeoutMs`. */
async function heardWithin(heard: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!heard() && Date.now() < deadline) await sleep(10);
  return heard();
}

function listen(h: DriverHarness) {
  expect(h.driver.wake, 'driver.wake (pass wake: false when the backend has none)').toBeDefined();
  const queues: string[] = [];
  const unsubscribe = h.driver.wake!.subscribe((queue) => queues.push(queue));
  return { queues, unsubscribe };
}

/** The push wake, for drivers that offer one. */
export const wakeCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a subscriber hears the queue of a newly ready row',
    async run(h) {
      const { queues, unsubscribe } = listen(h);
      try {
        await h.enqueue(h.queue);
        expect(await heardWithin(() => queues.includes(h.queue), 2_000)).toBe(true);
      } finally {
        unsubscribe();
      }
    },
  },
  {
    group,
    name: 'an unsubscribed listener hears nothing more',
    async run(h) {
      const { queues, unsubscribe } = listen(h);
      const probe = listen(h);
      unsubscribe();
      await h.enqueue(h.queue);
      expect(
        await heardWithin(() => probe.queues.includes(h.queue), 2_000),
        'the other subscriber hears it',
      ).toBe(true);
      probe.unsubscribe();
      expect(queues).not.toContain(h.queue);
    },
  },
];
