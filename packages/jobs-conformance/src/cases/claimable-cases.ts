import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'claimable';
const failure = { code: 'E', message: 'failed for good' };

/**
 * A row is claimable exactly when it is due, whatever else its queue holds or held: rows delayed
 * longer, rows that finished, rows removed, queues that never held a row, queues of one claim
 * that run dry before the others.
 */
export const claimableCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a delayed row is claimable once due though a row enqueued before it is delayed longer',
    async run(h) {
      const now = h.driver.now();
      const longer = await h.enqueue(h.queue, { runAt: now + LONG_MS });
      const sooner = await h.enqueue(h.queue, { runAt: now + h.tickMs });
      await h.advance(h.tickMs * 2);
      const claimed = await h.claim(h.queue);
      expect(claimed.map((job) => job.id)).toEqual([sooner.id]);
      expect((await h.row(longer.id)).state).toBe('delayed');
    },
  },
  {
    group,
    name: 'a delayed row is claimable once due after other rows of its queue finished',
    async run(h) {
      const [done, dead, cancelled] = [await h.running(), await h.running(), await h.running()];
      expect(await h.driver.ack(done.id, done.claim)).toBe(true);
      expect(
        await h.driver.nack(dead.id, dead.claim, { kind: 'dead', error: failure, stopReason: 'terminal' }),
      ).toBe(true);
      expect(await h.introspect.cancel(cancelled.id)).toBe(true);
      const delayed = await h.enqueue(h.queue, { runAt: h.driver.now() + h.tickMs });
      await h.advance(h.tickMs * 2);
      expect((await h.claim(h.queue)).map((job) => job.id)).toEqual([delayed.id]);
    },
  },
  {
    group,
    name: 'a removed row is never claimed, whether it was ready or delayed',
    async run(h) {
      const ready = await h.enqueue(h.queue);
      const delayed = await h.enqueue(h.queue, { runAt: h.driver.now() + h.tickMs });
      const kept = await h.enqueue(h.queue);
      expect(await h.introspect.remove(ready.id)).toBe(true);
      expect(await h.introspect.remove(delayed.id)).toBe(true);
      await h.advance(h.tickMs * 2);
      expect((await h.claim(h.queue)).map((job) => job.id)).toEqual([kept.id]);
    },
  },
  {
    group,
    name: 'a claim naming a queue that never held a row answers nothing from it, and still claims the others',
    async run(h) {
      const never = h.unique('q-never');
      expect(await h.claim(never)).toEqual([]);
      const row = await h.enqueue(h.queue);
      const claimed = await h.driver.claim({
        queues: [never, h.queue],
        limit: 5,
        workerId: 'claimable-worker',
        visibilityTimeoutMs: LONG_MS,
      });
      expect(claimed.map((job) => job.id)).toEqual([row.id]);
    },
  },
  {
    group,
    name: 'a batch claim keeps taking from its other queues after the one named last runs dry',
    async run(h) {
      const [a, b] = [h.unique('qa'), h.unique('qb')];
      const runAt = h.driver.now() - 10_000;
      const low1 = await h.enqueue(a, { runAt, priority: 0 });
      const low2 = await h.enqueue(a, { runAt, priority: 0 });
      const high = await h.enqueue(b, { runAt, priority: 5 });
      const claimed = await h.driver.claim({
        queues: [a, b],
        limit: 10,
        workerId: 'claimable-worker',
        visibilityTimeoutMs: LONG_MS,
      });
      expect(claimed.map((job) => job.id)).toEqual([high.id, low1.id, low2.id]);
    },
  },
];
