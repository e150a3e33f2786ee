import { randomUUID } from 'node:crypto';
import type { LeaseGrant, LeaseStore } from '@x/jobs-core/driver';
import { callScript, type DriverContext } from '../driver-context.js';
import { LEASE_ACQUIRE_SCRIPT } from '../lua/lease-acquire.lua.js';
import { LEASE_HOLDERS_SCRIPT } from '../lua/lease-holders.lua.js';
import { LEASE_RELEASE_SCRIPT } from '../lua/lease-release.lua.js';
import { LEASE_RENEW_SCRIPT } from '../lua/lease-renew.lua.js';

/** Fleet-wide counted slots: one hash per lease key (`lease:<key>`), token → expiry and holder. */
export function createLeaseStore(context: DriverContext): LeaseStore {
  const leaseKey = (key: string) => ({ lease: context.keys.lease(key) });
  return {
    async acquire(key, holder, options): Promise<LeaseGrant | null> {
      const reply = (await callScript(
        context,
        'leases.acquire',
        LEASE_ACQUIRE_SCRIPT,
        [holder, options.limit, Math.max(1, Math.round(options.ttlMs)), randomUUID()],
        leaseKey(key),
      )) as [string, string] | null;
      if (reply === null) return null;
      return { key, holder, token: reply[0], expiresAt: Number(reply[1]) };
    },
    async renew(grant, ttlMs): Promise<LeaseGrant | null> {
      const reply = await callScript(
        context,
        'leases.renew',
        LEASE_RENEW_SCRIPT,
        [grant.token, grant.holder, Math.max(1, Math.round(ttlMs))],
        leaseKey(grant.key),
      );
      return reply === null ? null : { ...grant, expiresAt: Number(reply) };
    },
    async release(grant): Promise<boolean> {
      const reply = await callScript(
        context,
        'leases.release',
        LEASE_RELEASE_SCRIPT,
        [grant.token, grant.holder],
        leaseKey(grant.key),
      );
      return reply === 1;
    },
    async holders(key): Promise<readonly LeaseGrant[]> {
      const reply = (await callScript(
        context,
        'leases.holders',
        LEASE_HOLDERS_SCRIPT,
        [],
        leaseKey(key),
      )) as [string, string, string][];
      return reply
        .map(([token, expiresAt, holder]) => ({ key, holder, token, expiresAt: Number(expiresAt) }))
        .sort((a, b) => a.expiresAt - b.expiresAt);
    },
  };
}
