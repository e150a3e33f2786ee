import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'suspend gap';

/** Suspends `job` waiting for `event` until an hour from now; answers whether its queue is claimable at once. */
async function suspendIsDue(
  h: DriverHarness,
  queue: string,
  job: { id: string; claim: { workerId: string; token: string } },
  event: string,
): Promise<boolean> {
  const runAt = h.driver.now() + LONG_MS;
  expect(await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt, waitFor: event })).toBe(true);
  expect(await h.row(job.id)).toMatchObject({ state: 'suspended', waitingFor: event });
  return (await h.claim(queue)).length > 0;
}

/**
 * A suspend with `waitFor` is made due now only by an unexpired event of exactly that name
 * published after the attempt started; a claim that never started has no gap to close.
 */
export const suspendGapCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'an event of another name published since the start does not make the suspend due',
    async run(h) {
      const job = await h.started();
      await h.advance(h.tickMs);
      await h.driver.events.publish(h.unique('other.event'), {}, { ttlMs: LONG_MS });
      expect(await suspendIsDue(h, h.queue, job, h.unique('order.paid'))).toBe(false);
    },
  },
  {
    group,
    name: 'an event published since the start that has expired does not make the suspend due',
    async run(h) {
      const event = h.unique('order.paid');
      const job = await h.started();
      await h.advance(h.tickMs);
      await h.driver.events.publish(event, { orderId: 1 }, { ttlMs: h.tickMs });
      await h.advance(h.tickMs * 3);
      expect(await h.driver.events.find(event, { since: 0 }), 'expired').toBeNull();
      expect(await suspendIsDue(h, h.queue, job, event)).toBe(false);
    },
  },
  {
    group,
    name: 'a claim that never started is not made due by an event published while it was held',
    async run(h) {
      const event = h.unique('order.paid');
      const job = await h.running();
      await h.advance(h.tickMs);
      await h.driver.events.publish(event, { orderId: 1 }, { ttlMs: LONG_MS });
      expect(await suspendIsDue(h, h.queue, job, event)).toBe(false);
    },
  },
  {
    group,
    name: 'an unexpired event of that name published since the start makes it due, beside an expired one',
    async run(h) {
      const event = h.unique('order.paid');
      const job = await h.started();
      await h.advance(h.tickMs);
      await h.driver.events.publish(event, { n: 1 }, { ttlMs: LONG_MS });
      await h.advance(h.tickMs);
      await h.driver.events.publish(event, { n: 2 }, { ttlMs: h.tickMs });
      await h.advance(h.tickMs * 3);
      expect(await suspendIsDue(h, h.queue, job, event)).toBe(true);
    },
  },
];
