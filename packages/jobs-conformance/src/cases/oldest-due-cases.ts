import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';
import { oldestReadyAge } from './due-stats-cases.js';

const group = 'stats';

/** `oldestReadyAgeMs` measures the earliest due `runAt`, whatever order the rows were written in. */
export const oldestDueCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'oldestReadyAgeMs is the age of the earliest due runAt, not of the first row written',
    async run(h) {
      const later = h.driver.now() + 3 * h.tickMs;
      const earlier = h.driver.now() + h.tickMs;
      await h.enqueue(h.queue, { runAt: later });
      await h.enqueue(h.queue, { runAt: earlier });
      await h.advance(6 * h.tickMs);
      const before = h.driver.now();
      const age = await oldestReadyAge(h, h.queue);
      expect(age, 'both rows are due').not.toBeNull();
      expect(age!, 'older than the later row by at least a tick').toBeGreaterThanOrEqual(
        before - later + h.tickMs,
      );
      expect(age!).toBeLessThanOrEqual(h.driver.now() - earlier + 2);
    },
  },
  {
    group,
    name: 'oldestReadyAgeMs leaves out running rows, also one whose lease lapsed',
    async run(h) {
      await h.enqueue(h.queue, { runAt: h.driver.now() - 60_000 });
      await h.claimOne(h.queue, { visibilityTimeoutMs: h.tickMs });
      await h.advance(h.tickMs * 3);
      expect(await oldestReadyAge(h, h.queue), 'only a running row, its lease lapsed').toBeNull();
    },
  },
];
