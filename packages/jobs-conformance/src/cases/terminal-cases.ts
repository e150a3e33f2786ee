import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'terminal';

/** Asserts the row is still cancelled and nothing on its queue can be claimed. */
async function expectStillCancelled(h: DriverHarness, id: string, queue: string) {
  expect((await h.row(id)).state, 'still cancelled').toBe('cancelled');
  expect(await h.claim(queue), 'nothing claimable').toEqual([]);
  const [stats] = (await h.driver.stats()).filter((s) => s.queue === queue);
  expect(stats?.counts.cancelled).toBe(1);
  expect(stats?.oldestReadyAgeMs ?? null, 'nothing due').toBeNull();
}

/** Terminal means terminal, over time: no timer, wake or event brings a cancelled row back. */
export const terminalCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a cancelled delayed row stays cancelled after its runAt passes',
    async run(h) {
      const row = await h.enqueue(h.queue, { runAt: h.driver.now() + h.tickMs });
      expect(await h.introspect.cancel(row.id, 'not wanted')).toBe(true);
      await h.advance(2 * h.tickMs);
      await expectStillCancelled(h, row.id, h.queue);
    },
  },
  {
    group,
    name: 'a cancelled sleeping row stays cancelled after its wake time passes',
    async run(h) {
      const job = await h.running();
      await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt: h.driver.now() + h.tickMs });
      expect(await h.introspect.cancel(job.id)).toBe(true);
      await h.advance(2 * h.tickMs);
      await expectStillCancelled(h, job.id, h.queue);
    },
  },
  {
    group,
    name: 'a cancelled row waiting for an event stays cancelled when the event is published',
    async run(h) {
      const event = h.unique('order.paid');
      const job = await h.running();
      await h.driver.nack(job.id, job.claim, {
        kind: 'suspend',
        runAt: h.driver.now() + LONG_MS,
        waitFor: event,
      });
      expect(await h.introspect.cancel(job.id)).toBe(true);
      const cancelled = await h.row(job.id);
      await h.driver.events.publish(event, { orderId: 'o1' }, { ttlMs: LONG_MS });
      await h.advance(h.tickMs);
      await expectStillCancelled(h, job.id, h.queue);
      expect(await h.row(job.id), 'the publish wrote nothing to the cancelled row').toEqual(cancelled);
      expect(await h.introspect.promote(job.id), 'promote of a cancelled row').toBe(false);
    },
  },
  {
    group,
    name: 'a cancelled running row cannot be brought back by its holder: heartbeat and nack answer false',
    async run(h) {
      const job = await h.running();
      expect(await h.introspect.cancel(job.id)).toBe(true);
      expect(await h.driver.heartbeat(job.id, job.claim, LONG_MS)).toBe(false);
      expect(await h.driver.nack(job.id, job.claim, { kind: 'release' })).toBe(false);
      expect(await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt: h.driver.now() })).toBe(false);
      await h.advance(h.tickMs);
      await expectStillCancelled(h, job.id, h.queue);
    },
  },
];
