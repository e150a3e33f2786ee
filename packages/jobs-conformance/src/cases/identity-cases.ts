import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'driver';

/** The driver's own members: its name and its clock. */
export const identityCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'name is a non-empty string',
    async run(h) {
      expect(typeof h.driver.name).toBe('string');
      expect(h.driver.name.trim()).not.toBe('');
    },
  },
  {
    group,
    name: 'now() is the clock rows are timed by: it moves as time passes and stamps enqueuedAt',
    async run(h) {
      const before = h.driver.now();
      await h.advance(h.tickMs);
      const after = h.driver.now();
      expect(after - before).toBeGreaterThanOrEqual(h.tickMs - 2);
      const written = await h.enqueue(h.queue);
      const { enqueuedAt } = await h.row(written.id);
      expect(enqueuedAt).toBeGreaterThanOrEqual(after - 25);
      expect(enqueuedAt).toBeLessThanOrEqual(h.driver.now() + 25);
    },
  },
];
