import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeaseGrant, LeaseStore } from '@x/jobs-core/driver';
import { schedulerError } from './errors.js';
import type { SchedulerLeader } from './scheduler-leader.js';

/**
 * The lease key the default leader holds in `driver.leases`: who leads the fleet now is
 * `driver.leases.holders(SCHEDULER_LEADER_KEY)`. Every node of a fleet must use the same key.
 */
export const SCHEDULER_LEADER_KEY = 'x-jobs:scheduler:leader';

/** Options of {@link leaseLeader}. */
export interface LeaseLeaderOptions {
  /** The lease key every node of one fleet shares. (Default: {@link SCHEDULER_LEADER_KEY}, 'x-jobs:scheduler:leader') */
  readonly key?: string;
  /** This node's holder id. (Default: `scheduler:<hostname>:<pid>:<random>`, unique per leader) */
  readonly holder?: string;
  /** How long leadership outlives a node that stopped renewing, in ms. (Default: 30000) */
  readonly ttlMs?: number;
}

/**
 * A leader elected through a fleet-wide lease of limit 1: the node holding `key` leads until it
 * stops renewing for `ttlMs`. `acquire()` takes or renews the lease (one call to
 * `LeaseStore.acquire`), so it needs no connection affinity, unlike a session advisory lock.
 */
export function leaseLeader(leases: LeaseStore, options: LeaseLeaderOptions = {}): SchedulerLeader {
  const key = options.key ?? SCHEDULER_LEADER_KEY;
  const holder = options.holder ?? `scheduler:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const ttlMs = options.ttlMs ?? 30_000;
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw schedulerError('X_SCHEDULER_OPTIONS_INVALID', `ttlMs: a positive integer of ms (got ${ttlMs}).`, {
      field: 'ttlMs',
    });
  }
  let grant: LeaseGrant | null = null;
  return {
    description: `lease ${key} as ${holder}`,
    unsafe: false,
    async acquire() {
      grant = await leases.acquire(key, holder, { limit: 1, ttlMs });
      return grant !== null;
    },
    async release() {
      const held = grant;
      grant = null;
      if (held !== null) await leases.release(held);
    },
  };
}
