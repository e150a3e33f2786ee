import { expect } from 'vitest';
import { LONG_MS } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'leases';

/** The lease store: counted slots, renewal, TTL reclaim, fenced renew and release. */
export const leaseCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'acquire grants up to limit slots, then answers null',
    async run(h) {
      const key = h.unique('job:sync');
      const a = await h.leases.acquire(key, 'a', { limit: 2, ttlMs: LONG_MS });
      const b = await h.leases.acquire(key, 'b', { limit: 2, ttlMs: LONG_MS });
      expect(a).toMatchObject({ key, holder: 'a' });
      expect(b).toMatchObject({ key, holder: 'b' });
      expect(a!.token).not.toBe(b!.token);
      expect(await h.leases.acquire(key, 'c', { limit: 2, ttlMs: LONG_MS })).toBeNull();
      const holders = await h.leases.holders(key);
      expect(holders.map((grant) => grant.holder).sort()).toEqual(['a', 'b']);
      expect(
        await h.leases.acquire(h.unique('job:other'), 'c', { limit: 2, ttlMs: LONG_MS }),
        'keys are separate',
      ).not.toBeNull();
    },
  },
  {
    group,
    name: 'concurrent acquires never grant more than limit',
    async run(h) {
      const key = h.unique('job:racy');
      const grants = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          h.leases.acquire(key, `holder-${i}`, { limit: 3, ttlMs: LONG_MS }),
        ),
      );
      expect(grants.filter((grant) => grant !== null)).toHaveLength(3);
      expect(await h.leases.holders(key)).toHaveLength(3);
    },
  },
  {
    group,
    name: 'acquire by the holder of a slot renews that slot, keeping its token',
    async run(h) {
      const key = h.unique('scheduler:leader');
      const first = await h.leases.acquire(key, 'node-1', { limit: 1, ttlMs: h.tickMs * 10 });
      const again = await h.leases.acquire(key, 'node-1', { limit: 1, ttlMs: LONG_MS });
      expect(again).toMatchObject({ key, holder: 'node-1', token: first!.token });
      expect(again!.expiresAt).toBeGreaterThan(first!.expiresAt);
      expect(await h.leases.holders(key)).toHaveLength(1);
      expect(await h.leases.acquire(key, 'node-2', { limit: 1, ttlMs: LONG_MS })).toBeNull();
    },
  },
  {
    group,
    name: 'an expired slot is free: another holder takes it after the TTL',
    async run(h) {
      const key = h.unique('scheduler:leader');
      const first = await h.leases.acquire(key, 'node-1', { limit: 1, ttlMs: h.tickMs });
      expect(first).not.toBeNull();
      await h.advance(h.tickMs * 2);
      expect(await h.leases.holders(key), 'lapsed grants are not holders').toEqual([]);
      const taken = await h.leases.acquire(key, 'node-2', { limit: 1, ttlMs: LONG_MS });
      expect(taken).toMatchObject({ holder: 'node-2' });
      expect((await h.leases.holders(key)).map((grant) => grant.holder)).toEqual(['node-2']);
    },
  },
  {
    group,
    name: 'renew extends a held grant; a lapsed-and-taken grant cannot renew or release',
    async run(h) {
      const key = h.unique('job:renew');
      const grant = await h.leases.acquire(key, 'a', { limit: 1, ttlMs: h.tickMs });
      const renewed = await h.leases.renew(grant!, LONG_MS);
      expect(renewed).toMatchObject({ key, holder: 'a', token: grant!.token });
      expect(renewed!.expiresAt).toBeGreaterThan(grant!.expiresAt);
      await h.advance(h.tickMs * 2);
      expect(
        await h.leases.acquire(key, 'b', { limit: 1, ttlMs: LONG_MS }),
        'renewed, so still held',
      ).toBeNull();

      const other = h.unique('job:stale');
      const stale = await h.leases.acquire(other, 'a', { limit: 1, ttlMs: h.tickMs });
      await h.advance(h.tickMs * 2);
      const thief = await h.leases.acquire(other, 'b', { limit: 1, ttlMs: LONG_MS });
      expect(thief).not.toBeNull();
      expect(await h.leases.renew(stale!, LONG_MS)).toBeNull();
      expect(await h.leases.release(stale!)).toBe(false);
      expect((await h.leases.holders(other)).map((g) => g.token)).toEqual([thief!.token]);
    },
  },
  {
    group,
    name: 'release frees the slot once; a released grant cannot renew',
    async run(h) {
      const key = h.unique('job:release');
      const grant = await h.leases.acquire(key, 'a', { limit: 1, ttlMs: LONG_MS });
      expect(await h.leases.release(grant!)).toBe(true);
      expect(await h.leases.release(grant!)).toBe(false);
      expect(await h.leases.renew(grant!, LONG_MS)).toBeNull();
      expect(await h.leases.holders(key)).toEqual([]);
      expect(await h.leases.acquire(key, 'b', { limit: 1, ttlMs: LONG_MS })).not.toBeNull();
    },
  },
];
