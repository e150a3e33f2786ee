import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'stats';

/** The `oldestReadyAgeMs` the driver reports for `queue` (its stats row must exist). */
export async function oldestReadyAge(h: DriverHarness, queue: string): Promise<number | null> {
  const [stats] = (await h.driver.stats()).filter((s) => s.queue === queue);
  expect(stats, `a stats row for ${queue}`).toBeDefined();
  return stats!.oldestReadyAgeMs;
}

/** `oldestReadyAgeMs` as documented: every due row counts, delayed and suspended ones included. */
export const dueStatsCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'oldestReadyAgeMs counts a delayed row once its runAt passed, though no claim moved it',
    async run(h) {
      const runAt = h.driver.now() + h.tickMs;
      await h.enqueue(h.queue, { runAt });
      expect(await oldestReadyAge(h, h.queue), 'not yet due').toBeNull();
      await h.advance(3 * h.tickMs);
      const age = await oldestReadyAge(h, h.queue);
      expect(age, 'due for about two ticks').not.toBeNull();
      expect(age!).toBeGreaterThanOrEqual(h.tickMs);
      expect(age!).toBeLessThanOrEqual(h.driver.now() - runAt + 2);
    },
  },
  {
    group,
    name: 'oldestReadyAgeMs counts a suspended row once its wake time passed',
    async run(h) {
      const job = await h.running();
      const wakeAt = h.driver.now() + h.tickMs;
      await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt: wakeAt });
      const other = h.unique('q-event');
      const waiter = await h.running(other);
      await h.driver.nack(waiter.id, waiter.claim, {
        kind: 'suspend',
        runAt: h.driver.now() + LONG_MS,
        waitFor: h.unique('e'),
      });
      expect(await oldestReadyAge(h, h.queue), 'not yet due').toBeNull();
      await h.advance(3 * h.tickMs);
      const age = await oldestReadyAge(h, h.queue);
      expect(age, 'due for about two ticks').not.toBeNull();
      expect(age!).toBeGreaterThanOrEqual(h.tickMs);
      expect(age!).toBeLessThanOrEqual(h.driver.now() - wakeAt + 2);
      expect(await oldestReadyAge(h, other), 'a waiter whose timeout is far off is not due').toBeNull();
    },
  },
];
