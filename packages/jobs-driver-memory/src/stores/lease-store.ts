import type { LeaseGrant, LeaseStore } from '@x/jobs-core/driver';
import { type MemoryStore, nextId } from '../memory-store.js';

/** The unexpired grants of `key`, dropping lapsed ones from the store: a lapsed slot is free. */
function liveGrants(store: MemoryStore, key: string, now: number): LeaseGrant[] {
  const live = (store.leases.get(key) ?? []).filter((grant) => grant.expiresAt > now);
  if (live.length === 0) store.leases.delete(key);
  else store.leases.set(key, live);
  return live;
}

/** Counted slots per key with a TTL; renew and release are fenced on the grant's token and its expiry. */
export function createLeaseStore(store: MemoryStore): LeaseStore {
  return {
    async acquire(key, holder, { limit, ttlMs }) {
      const now = store.clock.now();
      const live = liveGrants(store, key, now);
      const own = live.find((grant) => grant.holder === holder);
      if (own === undefined && live.length >= limit) return null;
      const grant: LeaseGrant =
        own === undefined
          ? { key, holder, token: nextId(store, 'lease'), expiresAt: now + ttlMs }
          : { ...own, expiresAt: now + ttlMs };
      store.leases.set(key, [...live.filter((slot) => slot !== own), grant]);
      return { ...grant };
    },
    async renew(grant, ttlMs) {
      const slots = liveGrants(store, grant.key, store.clock.now());
      const index = slots.findIndex((slot) => slot.token === grant.token);
      if (index < 0) return null;
      const renewed = { ...slots[index]!, expiresAt: store.clock.now() + ttlMs };
      slots[index] = renewed;
      return { ...renewed };
    },
    async release(grant) {
      const slots = liveGrants(store, grant.key, store.clock.now());
      const kept = slots.filter((slot) => slot.token !== grant.token);
      if (kept.length === slots.length) return false;
      store.leases.set(grant.key, kept);
      return true;
    },
    async holders(key) {
      return liveGrants(store, key, store.clock.now()).map((grant) => ({ ...grant }));
    },
  };
}
