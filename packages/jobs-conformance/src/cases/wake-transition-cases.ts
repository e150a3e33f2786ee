import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';
import { enqueueUntilHeard, listen } from './wake-cases.js';

const group = 'wake';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Listens with a live subscription (proved on a warm-up queue), runs `transition`, and asserts
 * the row's queue is heard within 3 s of real time. `setup` puts a row in the state the
 * transition starts from before anything listens, so only the transition can be heard.
 */
async function expectTransitionWakes(
  h: DriverHarness,
  setup: () => Promise<void>,
  transition: () => Promise<unknown>,
): Promise<void> {
  await setup();
  const { queues, unsubscribe } = listen(h);
  try {
    expect(await enqueueUntilHeard(h, h.unique('q-warmup'), queues), 'the listener is live').toBe(true);
    await sleep(50);
    queues.length = 0;
    await transition();
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && !queues.includes(h.queue)) await sleep(10);
    expect(queues, `a wake for ${h.queue}`).toContain(h.queue);
  } finally {
    unsubscribe();
  }
}

/** Every transition that makes a row due wakes its queue, not only an enqueue. */
export const wakeTransitionCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'publishing the event a row waits for wakes its queue',
    async run(h) {
      const event = h.unique('invoice.paid');
      await expectTransitionWakes(
        h,
        async () => {
          const job = await h.running();
          await h.driver.nack(job.id, job.claim, {
            kind: 'suspend',
            runAt: h.driver.now() + LONG_MS,
            waitFor: event,
          });
        },
        () => h.driver.events.publish(event, { invoice: 'i1' }, { ttlMs: LONG_MS }),
      );
    },
  },
  {
    group,
    name: 'promoting a delayed row wakes its queue',
    async run(h) {
      let id = '';
      await expectTransitionWakes(
        h,
        async () => {
          id = (await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS })).id;
        },
        () => h.introspect.promote(id),
      );
    },
  },
  {
    group,
    name: 'resuming a paused queue with ready rows wakes it',
    async run(h) {
      await expectTransitionWakes(
        h,
        async () => {
          await h.introspect.pause(h.queue);
          await h.enqueue(h.queue);
        },
        () => h.introspect.resume(h.queue),
      );
    },
  },
  {
    group,
    name: 'a retry or a release due now wakes its queue',
    async run(h) {
      let job = await h.running(h.unique('q-unused'));
      await expectTransitionWakes(
        h,
        async () => {
          job = await h.running();
        },
        () =>
          h.driver.nack(job.id, job.claim, {
            kind: 'retry',
            runAt: h.driver.now(),
            error: { code: 'E', message: 'm' },
          }),
      );
      const again = await h.claimOne(h.queue);
      await expectTransitionWakes(
        h,
        async () => {},
        () => h.driver.nack(again.id, again.claim, { kind: 'release' }),
      );
    },
  },
  {
    group,
    name: "an operator's retry of a dead row wakes its queue",
    async run(h) {
      let id = '';
      await expectTransitionWakes(
        h,
        async () => {
          const job = await h.running();
          id = job.id;
          await h.driver.nack(job.id, job.claim, {
            kind: 'dead',
            error: { code: 'E', message: 'm' },
            stopReason: 'terminal',
          });
        },
        () => h.introspect.retry(id),
      );
    },
  },
  {
    group,
    name: 'a suspend due now wakes its queue: a wake time already reached, or an event it may have missed',
    async run(h) {
      let job = await h.running(h.unique('q-unused'));
      await expectTransitionWakes(
        h,
        async () => {
          job = await h.started();
        },
        () => h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt: h.driver.now() }),
      );
      const event = h.unique('order.paid');
      const again = await h.claimOne(h.queue);
      expect(await h.driver.start(again.id, again.claim, LONG_MS)).toBe(true);
      await h.advance(h.tickMs);
      await h.driver.events.publish(event, {}, { ttlMs: LONG_MS });
      await expectTransitionWakes(
        h,
        async () => {},
        () =>
          h.driver.nack(again.id, again.claim, {
            kind: 'suspend',
            runAt: h.driver.now() + LONG_MS,
            waitFor: event,
          }),
      );
    },
  },
];
