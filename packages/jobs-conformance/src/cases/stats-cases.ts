import { JOB_STATES } from '@x/jobs-core';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'stats';

async function statsOf(h: DriverHarness, queue: string) {
  const found = (await h.driver.stats()).filter((stats) => stats.queue === queue);
  expect(found, `one stats row for ${queue}`).toHaveLength(1);
  return found[0]!;
}

/** stats: per-queue counts per state, the oldest due age, the pause flag. */
export const statsCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'counts every state of a queue, zero included',
    async run(h) {
      const error = { code: 'E', message: 'm' };
      for (let i = 0; i < 7; i += 1) await h.enqueue(h.queue);
      await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS });
      const [done, dead, suspended, cancelled, running] = await h.claim(h.queue, { limit: 5 });
      await h.driver.ack(done!.id, done!.claim);
      await h.driver.nack(dead!.id, dead!.claim, { kind: 'dead', error, stopReason: 'terminal' });
      await h.driver.nack(suspended!.id, suspended!.claim, {
        kind: 'suspend',
        runAt: h.driver.now() + LONG_MS,
      });
      await h.driver.nack(cancelled!.id, cancelled!.claim, { kind: 'release' });
      await h.introspect.cancel(cancelled!.id);
      expect(running).toBeDefined();
      const stats = await statsOf(h, h.queue);
      expect(stats.counts).toEqual({
        ready: 2,
        delayed: 1,
        running: 1,
        suspended: 1,
        done: 1,
        dead: 1,
        cancelled: 1,
      });
      expect(Object.keys(stats.counts).sort()).toEqual([...JOB_STATES].sort());
      expect(stats.paused).toBe(false);

      const empty = h.unique('q');
      await h.introspect.pause(empty);
      const pausedOnly = await statsOf(h, empty);
      expect(pausedOnly.paused).toBe(true);
      expect(Object.values(pausedOnly.counts).every((count) => count === 0)).toBe(true);
    },
  },
  {
    group,
    name: 'oldestReadyAgeMs is how long the longest-waiting due row has waited, null when none is due',
    async run(h) {
      await h.enqueue(h.queue, { runAt: h.driver.now() + LONG_MS });
      expect((await statsOf(h, h.queue)).oldestReadyAgeMs, 'only a future row').toBeNull();
      const start = h.driver.now();
      await h.enqueue(h.queue);
      await h.advance(h.tickMs);
      await h.enqueue(h.queue);
      const age = (await statsOf(h, h.queue)).oldestReadyAgeMs;
      expect(age).not.toBeNull();
      expect(age!).toBeGreaterThanOrEqual(h.tickMs - 2);
      expect(age!).toBeLessThanOrEqual(h.driver.now() - start + 2);
    },
  },
  {
    group,
    name: 'a paused queue reports paused with its counts',
    async run(h) {
      await h.enqueue(h.queue);
      await h.introspect.pause(h.queue);
      expect(await statsOf(h, h.queue)).toMatchObject({ paused: true, counts: { ready: 1 } });
      await h.introspect.resume(h.queue);
      expect((await statsOf(h, h.queue)).paused).toBe(false);
    },
  },
];
