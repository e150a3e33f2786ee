import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'visibility';

/** Leases on claimed rows: invisible while held, redelivered after, extended by heartbeat. */
export const visibilityCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a claimed row is invisible to other claimers while its lease holds',
    async run(h) {
      const written = await h.enqueue(h.queue);
      await h.claimOne(h.queue, { workerId: 'first' });
      expect(await h.claim(h.queue, { workerId: 'second' })).toHaveLength(0);
      expect((await h.row(written.id)).workerId).toBe('first');
    },
  },
  {
    group,
    name: 'an un-acked row is claimable again after its visibility timeout, the lapsed started attempt counted',
    async run(h) {
      const written = await h.enqueue(h.queue);
      const first = await h.claimOne(h.queue, { workerId: 'first', visibilityTimeoutMs: h.tickMs });
      expect(first.attempt).toBe(1);
      expect(await h.driver.start(first.id, first.claim, h.tickMs)).toBe(true);
      await h.advance(h.tickMs * 2);
      const second = await h.claimOne(h.queue, { workerId: 'second' });
      expect(second.id).toBe(written.id);
      expect(second.attempt).toBe(2);
      expect(second.claim.token).not.toBe(first.claim.token);
      // attempts counts starts: the lapsed one, not the second claim (not started yet).
      expect(await h.row(written.id)).toMatchObject({ state: 'running', attempts: 1, workerId: 'second' });
    },
  },
  {
    group,
    name: 'a heartbeat extends the lease so the row stays invisible',
    async run(h) {
      await h.enqueue(h.queue);
      const job = await h.claimOne(h.queue, { visibilityTimeoutMs: h.tickMs });
      const before = h.driver.now();
      expect(await h.driver.heartbeat(job.id, job.claim, h.tickMs * 20)).toBe(true);
      const row = await h.row(job.id);
      expect(row.leaseExpiresAt).toBeGreaterThanOrEqual(before + h.tickMs * 20 - 25);
      await h.advance(h.tickMs * 2);
      expect(await h.claim(h.queue, { workerId: 'other' })).toHaveLength(0);
      expect(await h.driver.ack(job.id, job.claim)).toBe(true);
    },
  },
];
