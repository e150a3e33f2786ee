import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import { errorCode } from '../errors/jobs-error.js';
import type { JobsLogger } from '../telemetry/logger.js';
import type { QueuePool } from './queue-pool.js';
import type { HealthTracker } from './worker-health.js';

/** How long an idle pool first waits before claiming again; it doubles up to `idlePollMaxMs`. */
const FIRST_IDLE_WAIT_MS = 25;
/** The largest buffer a pool grows to while its claims keep coming back full. */
const MAX_PREFETCH_BOOST = 500;

/** What a pool's claim loop needs from its worker. */
export interface ClaimLoopHost {
  readonly workerId: string;
  readonly driver: JobDriver;
  readonly logger: JobsLogger;
  readonly visibilityTimeoutMs: number;
  readonly idlePollMaxMs: number;
  /** How long a claimed job may wait in the buffer before it is handed back. */
  readonly staleBufferMs: number;
  /** The worker's `prefetch` option as given (undefined: the default, which may grow to 500). */
  readonly prefetchOption: number | undefined;
  /** True while the worker runs; the loop ends (handing its buffer back) once it is false. */
  running(): boolean;
  /**
   * Starts buffered jobs in free slots, handing stale ones back (counted by
   * {@link QueuePool.takeStaleCount}). The worker also calls it itself whenever a slot frees.
   */
  startBuffered(pool: QueuePool): void;
  /** Hands a claimed row back unstarted. */
  handBack(job: ClaimedJob): Promise<void>;
  /** Where the loop marks its turns and claim outcomes, for `worker.health()`. */
  readonly health: HealthTracker;
}

/**
 * One pool's claim loop: claims for its free slots plus its prefetch buffer in one batch (each
 * claim's send time travels with its rows: the lease window starts there), sleeps on the pool's
 * signal when every slot is busy or the queue ran dry, and hands the buffer back when the worker
 * stops. The buffer doubles per full claim (to 500 with the default, to 16× an explicit
 * `prefetch`) and falls back to `prefetch` on a short claim or a stale buffered job.
 */
export async function runClaimLoop(host: ClaimLoopHost, pool: QueuePool): Promise<void> {
  let idleWait = FIRST_IDLE_WAIT_MS;
  // The buffer grows while claims come back full (a deep queue: bigger batches, fewer round
  // trips) and falls back to `prefetch` as soon as one comes back short or a buffered job goes
  // stale (long jobs: hand work back to other workers rather than hoard it).
  let extra = pool.prefetch;
  // The default buffer may grow to MAX_PREFETCH_BOOST; one the app sized grows to 16× its size.
  const maxExtra =
    pool.prefetch === 0
      ? 0
      : host.prefetchOption === undefined
        ? Math.max(pool.prefetch, MAX_PREFETCH_BOOST)
        : Math.max(pool.prefetch, Math.min(MAX_PREFETCH_BOOST, pool.prefetch * 16));
  // True when the loop has a claim to make: a slot with no buffered job for it, or a boosted
  // buffer drained to half.
  const wantsClaim = (): boolean =>
    pool.inFlight + pool.buffered < pool.capacity || (extra > pool.prefetch && pool.buffered <= extra / 2);
  while (host.running()) {
    host.health.loopTurned(pool.queue);
    host.startBuffered(pool);
    if (pool.takeStaleCount() > 0) extra = pool.prefetch;
    if (!wantsClaim()) {
      // Every slot is running or has a buffered job waiting for it: claim nothing more until one
      // frees with no buffered job to take it (freed slots take buffered jobs without the loop).
      // (So a buffered job handed back for waiting too long is not claimed straight back.)
      // While jobs wait in the buffer, look again in time to hand back any that would otherwise
      // wait out their lease.
      await pool.changed(
        pool.buffered > 0 ? Math.min(host.idlePollMaxMs, host.staleBufferMs) : host.idlePollMaxMs,
        wantsClaim,
      );
      continue;
    }
    // Claim for the free slots plus the prefetch buffer in one batch.
    const want = pool.capacity + extra - pool.inFlight - pool.buffered;
    const busy = pool.inFlight > 0 || pool.buffered > 0;
    pool.clearNotified();
    let jobs: readonly ClaimedJob[];
    const sentAt = performance.now();
    // The rows that will run as soon as the claim lands (free slots not taken by buffered rows) are
    // started by the claim itself: one round trip instead of a start per body. The rest stay
    // uncounted in the buffer, so a crash loses no attempt of theirs.
    const startNow = Math.max(0, Math.min(want, pool.capacity - pool.inFlight - pool.buffered));
    try {
      jobs = await host.driver.claim({
        queues: [pool.queue],
        limit: want,
        workerId: host.workerId,
        visibilityTimeoutMs: host.visibilityTimeoutMs,
        ...(startNow > 0 ? { start: startNow } : {}),
      });
    } catch (error) {
      host.health.claimFailed(errorCode(error) ?? null);
      host.logger.log('warn', 'jobs.claim.failed', {
        workerId: host.workerId,
        queue: pool.queue,
        code: errorCode(error) ?? null,
      });
      idleWait = Math.min(idleWait * 2, host.idlePollMaxMs);
      await pool.changed(idleWait);
      continue;
    }
    host.health.claimed(jobs.length);
    if (!host.running()) {
      // Stopped while the claim was in flight: hand its rows back uncounted rather than start them.
      await Promise.all(jobs.map((job) => host.handBack(job)));
      break;
    }
    pool.hold(jobs, sentAt);
    host.startBuffered(pool);
    if (jobs.length >= want) {
      idleWait = FIRST_IDLE_WAIT_MS;
      extra = Math.min(maxExtra, extra * 2);
      continue;
    }
    extra = pool.prefetch;
    // The queue ran dry: sleep until a slot frees, a wake arrives, or the idle wait passes — and
    // no longer than a buffered job may wait, so one that would go stale is handed back in time.
    if (jobs.length > 0) idleWait = FIRST_IDLE_WAIT_MS;
    const wait = busy || jobs.length > 0 ? host.idlePollMaxMs : idleWait;
    await pool.changed(pool.buffered > 0 ? Math.min(wait, host.staleBufferMs) : wait);
    if (jobs.length === 0 && !busy) idleWait = Math.min(idleWait * 2, host.idlePollMaxMs);
  }
  host.health.loopEnded(pool.queue);
  await Promise.all(pool.takeAllBuffered().map((job) => host.handBack(job)));
}
