import { type ClaimedJob, type ClaimOptions, isFairClaim, type QueueSettings } from '@x/jobs-core/driver';
import { takeDue, takeDueFair } from '../claim-index.js';
import { toClaimedJob } from '../memory-rows.js';
import { belowCap, type MemoryStore, markStarted, moveTo, nextId } from '../memory-store.js';

/**
 * Takes up to `limit` due rows of the unpaused `queues` in claim order (priority DESC, runAt ASC,
 * enqueue order ASC), each under a fresh token. Counts no attempt: `startedAt` goes back to null,
 * the mark `startRow` sets when this claim's body starts. Reads the claim index, so it costs
 * O(k log n) for k rows claimed. Synchronous, so no other call can take the same rows. The first
 * `options.start` rows are started as `startRow` would (counted, `startedAt` stamped), except a
 * row whose attempts reached its cap. A claim of a fair queue in `settings` takes its rows in the
 * fair order instead (`takeDueFair`, counting the service the queue gave), and answers them in
 * that order.
 */
export function claimRows(store: MemoryStore, options: ClaimOptions, settings?: QueueSettings): ClaimedJob[] {
  const fair = settings !== undefined && isFairClaim(settings, options);
  if (options.limit < 1) return [];
  const queues = new Set(options.queues.filter((queue) => !store.pausedQueues.has(queue)));
  const now = store.clock.now();
  const leaseExpiresAt = now + options.visibilityTimeoutMs;
  const startFirst = options.start ?? 0;
  const taken = fair
    ? [...queues].flatMap((queue) =>
        takeDueFair(
          store.claimIndex,
          queue,
          now,
          options.limit,
          fairServiceOf(store, queue),
          settings.fairPolicies.get(queue)!,
        ),
      )
    : takeDue(store.claimIndex, queues, now, options.limit);
  return taken.map((row, rank) => {
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

/** The service a fair queue gave so far (created empty on its first fair claim). */
function fairServiceOf(store: MemoryStore, queue: string) {
  let service = store.fairService.get(queue);
  if (service === undefined) {
    service = { clock: 0, served: new Map() };
    store.fairService.set(queue, service);
  }
  return service;
}
