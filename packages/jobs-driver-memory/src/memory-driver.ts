import type { Clock, JobDriver } from '@x/jobs-core';
import { systemClock } from '@x/jobs-core';
import { memoryBackfills } from './memory-backfills.js';
import { claimRows } from './memory-claim.js';
import { enqueueRow } from './memory-enqueue.js';
import { memoryEvents } from './memory-events.js';
import { memoryIntrospection } from './memory-introspection.js';
import { memoryLeases } from './memory-leases.js';
import { memorySchedules } from './memory-schedules.js';
import { ackRow, heartbeatRow, nackRow, progressRow, startRow } from './memory-settle.js';
import { queueStats } from './memory-stats.js';
import { memorySteps } from './memory-steps.js';
import { assertOpen, createMemoryStore, type MemoryStore } from './memory-store.js';
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
  /** Lifts a synchronous operation on the store into an async driver method refused after close. */
  const open =
    <Args extends unknown[], Result>(operation: (store: MemoryStore, ...args: Args) => Result) =>
    async (...args: Args): Promise<Result> => {
      assertOpen(store);
      return operation(store, ...args);
    };
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

    enqueue: open((held, request) => enqueueRow(held, request)),
    enqueueMany: open((held, requests) => requests.map((request) => enqueueRow(held, request, 'dedupe'))),
    claim: open(claimRows),
    start: open(startRow),
    ack: open(ackRow),
    nack: open(nackRow),
    heartbeat: open(heartbeatRow),
    progress: open(progressRow),
    stats: open(queueStats),
    async close() {
      store.closed = true;
      store.wakeListeners.clear();
    },
  };
}
