import type { RateLimitStore, RateLimitTake, RateLimitWindow } from '@x/jobs-core/driver';
import type { MemoryStore, RateLimitLog } from '../memory-store.js';

/** Lapsed keys are swept after this many takes, so a store of short-lived keys stays small. */
const SWEEP_EVERY = 1_000;

/**
 * The sliding-window log, the reference the Postgres statement and the Redis script follow:
 * drop the grants that stopped counting (`grant + perMs ≤ now`); grant when fewer than `limit`
 * remain; else answer `max(E, previous retryAt + ⌈perMs / limit⌉)`, E being when enough grants
 * stop counting for one more (the `(n − limit)`-th oldest of the n counted, plus `perMs`).
 * Grants are recorded at `max(now, newest grant)`, so the log stays sorted if a clock steps back.
 */
export function takeFromLog(log: RateLimitLog, now: number, window: RateLimitWindow): RateLimitTake {
  const { limit, perMs } = window;
  let expired = 0;
  while (expired < log.grants.length && log.grants[expired]! + perMs <= now) expired += 1;
  if (expired > 0) log.grants.splice(0, expired);
  const count = log.grants.length;
  if (count < limit) {
    log.grants.push(Math.max(now, log.grants[count - 1] ?? now));
    return GRANTED;
  }
  const earliest = log.grants[count - limit]! + perMs;
  const retryAt = Math.max(earliest, log.lastRetryAt + Math.ceil(perMs / limit));
  log.lastRetryAt = retryAt;
  return { ok: false, retryAt };
}

/** When a log no longer matters: its last grant stopped counting and its last retryAt passed. */
function lapsesAt(log: RateLimitLog): number {
  return Math.max((log.grants[log.grants.length - 1] ?? 0) + log.perMs, log.lastRetryAt);
}

const GRANTED: RateLimitTake = Object.freeze({ ok: true });

/** Rate limits over one process's maps: exact within the process (its takes are synchronous). */
export function createRateLimitStore(store: MemoryStore): RateLimitStore {
  let takes = 0;
  return {
    async take(key, window) {
      const now = store.clock.now();
      takes += 1;
      if (takes % SWEEP_EVERY === 0) {
        for (const [swept, log] of store.rateLimits) if (lapsesAt(log) <= now) store.rateLimits.delete(swept);
      }
      let log = store.rateLimits.get(key);
      if (log === undefined) {
        log = { grants: [], lastRetryAt: 0, perMs: window.perMs };
        store.rateLimits.set(key, log);
      }
      log.perMs = window.perMs;
      return takeFromLog(log, now, window);
    },
  };
}
