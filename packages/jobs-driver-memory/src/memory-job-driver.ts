import type { Clock, CompleteJobDriver } from '@x/jobs-core';
import { systemClock } from '@x/jobs-core';
import {
  parseQueueOptions,
  type QueueOptionsMap,
  refuseAfterClose,
  type WakeSource,
} from '@x/jobs-core/driver';
import { memoryIntrospection } from './introspection/create-introspection.js';
import { createMemoryStore, type MemoryStore } from './memory-store.js';
import { claimRows } from './queue/claim.js';
import { enqueueRow } from './queue/enqueue.js';
import { ackRow, heartbeatRow, nackRow, progressRow } from './queue/settle.js';
import { startRow } from './queue/start.js';
import { queueStats } from './queue/stats.js';
import { createBackfillLedger } from './stores/backfill-ledger.js';
import { createEventStore } from './stores/event-store.js';
import { createLeaseStore } from './stores/lease-store.js';
import { createRateLimitStore } from './stores/rate-limit-store.js';
import { createScheduleStore } from './stores/schedule-store.js';
import { createStepStore } from './stores/step-store.js';
import { memoryWake } from './wake/wake-source.js';

/** Options for {@link memoryJobDriver}. */
export interface MemoryJobDriverOptions {
  /** Where the driver reads the time; pass a `virtualClock()` to move time by hand in tests. (Default: the wall clock) */
  readonly clock?: Clock;
  /**
   * Per-queue settings: `{ imports: { fairness: 'tenant' } }` shares each claim of `imports`
   * fairly across tenants (see `QueueOptions`). Invalid settings are `X_QUEUE_OPTIONS_INVALID`.
   * (Default: none, every queue in the default order)
   */
  readonly queues?: QueueOptionsMap;
}

/** What {@link memoryJobDriver} answers: every store required, and its push wake. */
export interface MemoryJobDriver extends CompleteJobDriver {
  readonly name: 'memory';
  readonly wake: WakeSource;
}

/**
 * A complete `JobDriver` over in-process maps: every member, deterministic under an injected clock,
 * nothing survives the process. For tests and `x-jobs dev`; the reference a driver author copies.
 */
export function memoryJobDriver(options: MemoryJobDriverOptions = {}): MemoryJobDriver {
  const settings = parseQueueOptions(options.queues, 'memoryJobDriver');
  const store = createMemoryStore(options.clock ?? systemClock);
  /**
   * A synchronous operation on the store as a driver method: it answers its value at once, and
   * `refuseAfterClose` lifts it into the promise callers see (no promise of its own, nothing for
   * close to wait for).
   */
  const open =
    <Args extends unknown[], Result>(operation: (store: MemoryStore, ...args: Args) => Result) =>
    (...args: Args): Result =>
      operation(store, ...args);
  return refuseAfterClose<MemoryJobDriver>({
    name: 'memory',
    steps: createStepStore(store),
    events: createEventStore(store),
    introspect: memoryIntrospection(store),
    leases: createLeaseStore(store),
    rateLimits: createRateLimitStore(store),
    schedules: createScheduleStore(store),
    backfills: createBackfillLedger(store),
    wake: memoryWake(store),
    now: () => store.clock.now(),

    enqueue: open((held, request) => enqueueRow(held, request)),
    enqueueMany: open((held, requests) => requests.map((request) => enqueueRow(held, request, 'dedupe'))),
    claim: open((held, claim) => claimRows(held, claim, settings)),
    start: open(startRow),
    ack: open(ackRow),
    nack: open(nackRow),
    heartbeat: open(heartbeatRow),
    progress: open(progressRow),
    stats: open(queueStats),
    async close() {
      store.wakeListeners.clear();
      store.settleListeners.clear();
    },
  });
}
