import type { Clock, JobDriver } from '@x/jobs-core';
import { systemClock } from '@x/jobs-core';
import { memoryBackfills } from './memory-backfills.js';
import { claimRows } from './memory-claim.js';
import { enqueueRow } from './memory-enqueue.js';
import { memoryEvents } from './memory-events.js';
import { memoryIntrospection } from './memory-introspection.js';
import { memoryLeases } from './memory-leases.js';
import { memorySchedules } from './memory-schedules.js';
import { ackRow, heartbeatRow, nackRow, progressRow } from './memory-settle.js';
import { queueStats } from './memory-stats.js';
import { memorySteps } from './memory-steps.js';
import { assertOpen, createMemoryStore } from './memory-store.js';
import { memoryWake } from './memory-wake.js';

/** Options for {@link memoryJobDriver}. */
export interface MemoryJobDriverOptions {
  /** Where the driver reads the time; pass a `virtualClock()` to move time by hand in tests. (Default: the wall clock) */
  readonly clock?: Clock;
}

/**
 * A complete `JobDriver` over in-process maps: every member, deterministic under an injected clock,
 * nothing survives the process. For tests and `x-jobs dev`; the reference a driver author copies.
 */
export function memoryJobDriver(options: MemoryJobDriverOptions = {}): JobDriver {
  const store = createMemoryStore(options.clock ?? systemClock);
  return {
    name: 'memory',
    steps: memorySteps(store),
    events: memoryEvents(store),
    introspect: memoryIntrospection(store),
    leases: memoryLeases(store),
    schedules: memorySchedules(store),
    backfills: memoryBackfills(store),
    wake: memoryWake(store),
    now: () => store.clock.now(),

    async enqueue(request) {
      assertOpen(store);
      return enqueueRow(store, request);
    },
    async enqueueMany(requests) {
      assertOpen(store);
      return requests.map((request) => enqueueRow(store, { ...request, onConflict: 'dedupe' }));
    },
    async claim(claimOptions) {
      assertOpen(store);
      return claimRows(store, claimOptions);
    },
    async ack(jobId, claim, result) {
      assertOpen(store);
      return ackRow(store, jobId, claim, result);
    },
    async nack(jobId, claim, nackOptions) {
      assertOpen(store);
      return nackRow(store, jobId, claim, nackOptions);
    },
    async heartbeat(jobId, claim, visibilityTimeoutMs) {
      assertOpen(store);
      return heartbeatRow(store, jobId, claim, visibilityTimeoutMs);
    },
    async progress(jobId, claim, progress) {
      assertOpen(store);
      return progressRow(store, jobId, claim, progress);
    },
    async stats() {
      assertOpen(store);
      return queueStats(store);
    },
    async close() {
      store.closed = true;
      store.wakeListeners.clear();
    },
  };
}
