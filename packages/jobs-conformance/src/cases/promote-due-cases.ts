import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'promote-due';

/**
 * What the executor reads off `ClaimedJob.runAt` to tell a `promote` of a sleeping row from a
 * redelivery (core's `step-sleep`): a promote moves a suspended row's due time to the promote, a
 * lapsed lease leaves the due time the row had.
 */
export const promoteDueCases: readonly JobDriverCase[] = [
  {
    group,
    name: "a promoted suspended row is claimed with runAt at the promote: after its suspension began, before the suspension's runAt",
    async run(h) {
      const job = await h.started();
      const suspendedAt = h.driver.now();
      const wakeAt = suspendedAt + LONG_MS;
      expect(await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt: wakeAt })).toBe(true);
      await h.advance(h.tickMs);
      expect(await h.introspect.promote(job.id)).toBe(true);
      const again = await h.claimOne(h.queue);
      expect(again.id).toBe(job.id);
      expect(again.runAt).toBeGreaterThanOrEqual(suspendedAt);
      expect(again.runAt).toBeLessThan(wakeAt);
    },
  },
  {
    group,
    name: 'a row reclaimed after its lease lapsed is claimed with the runAt it had',
    async run(h) {
      const first = await h.started(h.queue, { visibilityTimeoutMs: h.tickMs });
      await h.advance(h.tickMs * 3);
      const again = await h.claimOne(h.queue);
      expect(again.id).toBe(first.id);
      expect(again.runAt).toBe(first.runAt);
    },
  },
  {
    group,
    name: 'a promoted delayed row is ready, like any row put in line at a time already passed',
    async run(h) {
      const delayed = await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS });
      expect(await h.introspect.promote(delayed.id)).toBe(true);
      const row = await h.row(delayed.id);
      expect(row.state).toBe('ready');
      expect(row.runAt).toBeLessThanOrEqual(h.driver.now());
    },
  },
];
