import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'fencing by token';

/**
 * Fencing is on the grant's token, never on the holder's name: a grant that lapsed stays dead
 * after the same holder re-acquires the key, and its renew and release leave the new grant alone.
 */
export const fencingTokenCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a lapsed lease grant cannot release or renew the grant its own holder re-acquired',
    async run(h) {
      const key = h.unique('lease');
      const first = await h.leases.acquire(key, 'node-a', { limit: 1, ttlMs: h.tickMs });
      expect(first).not.toBeNull();
      await h.advance(2 * h.tickMs);
      const second = await h.leases.acquire(key, 'node-a', { limit: 1, ttlMs: 3_600_000 });
      expect(second, 'the holder re-acquires the lapsed key').not.toBeNull();
      expect(second!.token, 'a new grant, a new token').not.toBe(first!.token);

      expect(await h.leases.release(first!), 'release with the lapsed grant').toBe(false);
      expect(await h.leases.renew(first!, 3_600_000), 'renew with the lapsed grant').toBeNull();
      const holders = await h.leases.holders(key);
      expect(holders.map((grant) => grant.token)).toEqual([second!.token]);
      expect(holders[0]!.expiresAt, 'the new grant keeps its own expiry').toBe(second!.expiresAt);
      expect(await h.leases.release(second!)).toBe(true);
    },
  },
  {
    group,
    name: 'a lapsed lease grant nobody took can neither renew nor release, and holds nothing',
    async run(h) {
      const key = h.unique('lease');
      const grant = await h.leases.acquire(key, 'node-a', { limit: 1, ttlMs: 3_600_000 });
      expect(grant).not.toBeNull();
      const short = await h.leases.renew(grant!, h.tickMs);
      expect(short, 'a held grant renews').not.toBeNull();
      await h.advance(2 * h.tickMs);
      expect(await h.leases.holders(key), 'a lapsed grant holds nothing').toEqual([]);
      expect(await h.leases.release(short!), 'release after the lapse').toBe(false);
      expect(await h.leases.renew(short!, 3_600_000), 'renew after the lapse').toBeNull();
      const other = await h.leases.acquire(key, 'node-b', { limit: 1, ttlMs: 3_600_000 });
      expect(other, 'the slot is free for anyone').not.toBeNull();
    },
  },
  {
    group,
    name: 'a lapsed claim holds its row until another claim takes it, even after a claim walked its queue',
    async run(h) {
      await h.enqueue(h.queue, { priority: 5 });
      await h.enqueue(h.queue, { priority: 0 });
      const [first, second] = await h.claim(h.queue, { limit: 2, visibilityTimeoutMs: h.tickMs });
      expect(second, 'two rows claimed').toBeDefined();
      await h.advance(2 * h.tickMs);
      const taken = await h.claimOne(h.queue);
      expect(taken.id, 'the higher priority lapsed row is reclaimed').toBe(first!.id);
      expect(
        await h.driver.heartbeat(first!.id, first!.claim, 3_600_000),
        'the reclaimed row is fenced',
      ).toBe(false);
      expect(
        await h.driver.heartbeat(second!.id, second!.claim, 3_600_000),
        'the untaken one still holds',
      ).toBe(true);
      expect(await h.driver.ack(second!.id, second!.claim)).toBe(true);
      expect((await h.row(second!.id)).state).toBe('done');
    },
  },
];
