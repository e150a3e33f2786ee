import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'dedupe';
const failure = { code: 'E', message: 'failed for good' };

/**
 * Deleting a row (remove, purge) touches only the dedupe key that row holds: a finished row's
 * deletion leaves the key with the live row that holds it now, and a live row's deletion frees it.
 */
export const keyReleaseCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'removing or purging a finished row leaves its key with the live row that holds it now',
    async run(h) {
      const key = h.unique('key');
      for (const drop of ['remove', 'purge'] as const) {
        const queue = h.unique('q');
        const first = await h.enqueue(queue, { idempotencyKey: key });
        const job = await h.claimOne(queue);
        expect(await h.driver.ack(job.id, job.claim)).toBe(true);
        const live = await h.enqueue(queue, { idempotencyKey: key, runAt: h.driver.now() + 3_600_000 });
        expect(live.deduped, 'the done row holds no key').toBe(false);
        if (drop === 'remove') expect(await h.introspect.remove(first.id)).toBe(true);
        else {
          await h.advance(2);
          await h.introspect.purge({ doneBefore: h.driver.now() });
          expect(await h.introspect.get(first.id), 'purged').toBeNull();
        }
        const again = await h.enqueue(queue, { idempotencyKey: key });
        expect(again, `after ${drop}`).toMatchObject({ id: live.id, deduped: true });
        expect(await h.introspect.cancel(live.id)).toBe(true);
      }
    },
  },
  {
    group,
    name: 'removing a live row frees its key: a retry of an earlier dead row with that key is accepted',
    async run(h) {
      const key = h.unique('key');
      const dead = await h.enqueue(h.queue, { idempotencyKey: key });
      const claimed = await h.claimOne(h.queue);
      expect(claimed.id).toBe(dead.id);
      await h.driver.nack(dead.id, claimed.claim, { kind: 'dead', error: failure, stopReason: 'terminal' });
      const live = await h.enqueue(h.queue, { idempotencyKey: key });
      expect(live.deduped).toBe(false);
      expect(await h.introspect.retry(dead.id), 'a live row holds the key').toBe(false);
      expect(await h.introspect.remove(live.id)).toBe(true);
      expect(await h.introspect.retry(dead.id), 'the key is free again').toBe(true);
      expect((await h.row(dead.id)).state).toBe('ready');
    },
  },
];
