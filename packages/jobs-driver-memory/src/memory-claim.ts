import type { ClaimedJob, ClaimOptions } from '@x/jobs-core';
import { toClaimedJob } from './memory-rows.js';
import { isDue, type MemoryJobRow, type MemoryStore, moveTo, nextId } from './memory-store.js';

/** Claim order: higher priority first, then earlier runAt, then enqueue order. */
export function claimOrder(a: MemoryJobRow, b: MemoryJobRow): number {
  return b.priority - a.priority || a.runAt - b.runAt || a.seq - b.seq;
}

/**
 * Takes up to `limit` due rows of the unpaused `queues` in claim order, each under a fresh token
 * with one more attempt counted. Synchronous, so no other call can take the same rows.
 */
export function claimRows(store: MemoryStore, options: ClaimOptions): ClaimedJob[] {
  const queues = new Set(options.queues.filter((queue) => !store.pausedQueues.has(queue)));
  if (queues.size === 0 || options.limit < 1) return [];
  const now = store.clock.now();
  const due = [...store.jobs.values()]
    .filter((row) => queues.has(row.queue) && isDue(row, now))
    .sort(claimOrder)
    .slice(0, options.limit);

  return due.map((row) => {
    const claim = { workerId: options.workerId, token: nextId(store, 'claim') };
    const leaseExpiresAt = now + options.visibilityTimeoutMs;
    row.attempts += 1;
    row.token = claim.token;
    row.workerId = claim.workerId;
    row.startedAt = now;
    row.leaseExpiresAt = leaseExpiresAt;
    row.waitingFor = null;
    moveTo(store, row, 'running');
    return toClaimedJob(row, claim, leaseExpiresAt);
  });
}
