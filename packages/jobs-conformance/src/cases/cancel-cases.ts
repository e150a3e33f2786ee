import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'cancel';

/** introspect.cancel of queued and running rows. */
export const cancelCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a queued row is cancelled at once with its reason and is never claimed',
    async run(h) {
      const written = await h.enqueue(h.queue);
      expect(await h.introspect.cancel(written.id, 'not needed')).toBe(true);
      const row = await h.row(written.id);
      expect(row).toMatchObject({ state: 'cancelled', cancelReason: 'not needed' });
      expect(row.finishedAt).not.toBeNull();
      expect(await h.claim(h.queue)).toHaveLength(0);
      expect(await h.introspect.cancel(written.id), 'already terminal').toBe(false);
      expect(await h.introspect.cancel(h.unique('absent')), 'absent').toBe(false);
    },
  },
  {
    group,
    name: "a running row is cancelled: its holder's heartbeat answers false and its settles do not land",
    async run(h) {
      const job = await h.running();
      expect(await h.introspect.cancel(job.id)).toBe(true);
      expect(await h.driver.heartbeat(job.id, job.claim, 60_000)).toBe(false);
      expect(await h.driver.ack(job.id, job.claim, 'late')).toBe(false);
      expect(await h.driver.nack(job.id, job.claim, { kind: 'release' })).toBe(false);
      expect(await h.row(job.id)).toMatchObject({ state: 'cancelled', cancelReason: null });
      expect(await h.claim(h.queue)).toHaveLength(0);
    },
  },
  {
    group,
    name: 'a delayed and a suspended row can be cancelled',
    async run(h) {
      const delayed = await h.enqueue(h.queue, { runAt: h.driver.now() + 60_000 });
      const other = h.unique('q');
      const job = await h.running(other);
      await h.driver.nack(job.id, job.claim, { kind: 'suspend', runAt: h.driver.now() + 60_000 });
      expect(await h.introspect.cancel(delayed.id)).toBe(true);
      expect(await h.introspect.cancel(job.id)).toBe(true);
      expect((await h.row(delayed.id)).state).toBe('cancelled');
      expect((await h.row(job.id)).state).toBe('cancelled');
    },
  },
];
