import { memoryJobDriver, virtualClock } from '@x/jobs-driver-memory';
import { describe, expect, it } from 'vitest';
import { leaseLeader, SCHEDULER_LEADER_KEY } from '../src/lease-leader.js';

describe('leaseLeader', () => {
  it('one holder at a time; acquire renews; release frees the lease at once', async () => {
    const clock = virtualClock(0);
    const { leases } = memoryJobDriver({ clock });
    const a = leaseLeader(leases!, { ttlMs: 1_000 });
    const b = leaseLeader(leases!, { ttlMs: 1_000 });
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    clock.advance(900);
    expect(await a.acquire()).toBe(true);
    clock.advance(900);
    expect(await b.acquire()).toBe(false);
    expect(await leases!.holders(SCHEDULER_LEADER_KEY)).toEqual([
      expect.objectContaining({ holder: expect.stringMatching(/^scheduler:/), expiresAt: 1_900 }),
    ]);
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    expect(a.unsafe).toBe(false);
  });

  it('a holder that stops renewing loses the lease after ttlMs', async () => {
    const clock = virtualClock(0);
    const { leases } = memoryJobDriver({ clock });
    const a = leaseLeader(leases!, { key: 'fleet-a', ttlMs: 1_000 });
    const b = leaseLeader(leases!, { key: 'fleet-a', holder: 'node-b', ttlMs: 1_000 });
    await a.acquire();
    clock.advance(1_001);
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    expect((await leases!.holders('fleet-a')).map((grant) => grant.holder)).toEqual(['node-b']);
  });

  it('refuses a ttlMs that is not a positive integer', () => {
    const { leases } = memoryJobDriver();
    expect(() => leaseLeader(leases!, { ttlMs: 0 })).toThrow(
      expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
    );
  });
});
