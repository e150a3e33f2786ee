import type { ClaimedJob, ClaimOptions } from '@x/jobs-core/driver';
import { takeDue } from '../claim-index.js';
import { toClaimedJob } from '../memory-rows.js';
import { belowCap, type MemoryStore, markStarted, moveTo, nextId } from '../memory-store.js';

/**
 * Takes up to `limit` due rows of the unpaused `queues` in claim order (priority DESC, runAt ASC,
 * enqueue order ASC), each under a fresh token. Counts no attempt: `startedAt` goes back to null,
 * the mark `startRow` sets when this claim's body starts. Reads the claim index, so it costs
 * O(k log n) for k rows claimed. Synchronous, so no other call can take the same rows. The first
 * `options.start` rows are started as `startRow` would (counted, `startedAt` stamped), except a
 * row whose attempts reached its cap.
 */
export function claimRows(store: MemoryStore, options: ClaimOptions): ClaimedJob[] {
  if (options.limit < 1) return [];
  const queues = new Set(options.queues.filter((queue) => !store.pausedQueues.has(queue)));
  const now = store.clock.now();
  const leaseExpiresAt = now + options.visibilityTimeoutMs;
  const startFirst = options.start ?? 0;
  return takeDue(store.claimIndex, queues, now, options.limit).map((row, rank) => {
    const claim = { workerId: options.workerId, token: nextId(store, 'claim') };
    const job = toClaimedJob(row, claim, leaseExpiresAt, rank < startFirst && belowCap(row));
    row.token = claim.token;
    row.workerId = claim.workerId;
    row.startedAt = null;
    if (job.started === true) markStarted(store, row, now);
    row.leaseExpiresAt = leaseExpiresAt;
    row.waitingFor = null;
    moveTo(store, row, 'running');
    return job;
  });
}
