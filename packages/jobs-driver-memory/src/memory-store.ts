import type {
  BackfillRecord,
  Clock,
  EventRecord,
  JobRecord,
  JobState,
  LeaseGrant,
  ScheduleState,
  StepRecord,
  WorkerInfo,
} from '@x/jobs-core';
import { isLiveState } from '@x/jobs-core';
import { memoryError } from './errors.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One job row as the memory driver holds it: the public record plus the claim token and enqueue order. */
export type MemoryJobRow = Mutable<JobRecord> & {
  /** The fencing token of the current claim; null when not running. */
  token: string | null;
  /** Enqueue order: the FIFO tie-break and the introspection cursor. */
  readonly seq: number;
};

/** Everything one memory driver holds. Every operation reads and writes it synchronously, so each is atomic. */
export interface MemoryStore {
  readonly clock: Clock;
  readonly jobs: Map<string, MemoryJobRow>;
  /** The live row id per dedupe scope (see {@link dedupeScope}). */
  readonly liveKeys: Map<string, string>;
  readonly pausedQueues: Set<string>;
  /** Steps per run id, by step name. */
  readonly steps: Map<string, Map<string, StepRecord>>;
  readonly events: EventRecord[];
  readonly leases: Map<string, LeaseGrant[]>;
  readonly schedules: Map<string, ScheduleState>;
  readonly backfills: Map<string, BackfillRecord>;
  readonly workers: Map<string, { readonly info: WorkerInfo; readonly expiresAt: number }>;
  readonly wakeListeners: Set<(queue: string) => void>;
  closed: boolean;
  /** Source of enqueue order, tokens and ids: deterministic for a given sequence of calls. */
  counter: number;
}

/** An empty store reading time from `clock`. */
export function createMemoryStore(clock: Clock): MemoryStore {
  return {
    clock,
    jobs: new Map(),
    liveKeys: new Map(),
    pausedQueues: new Set(),
    steps: new Map(),
    events: [],
    leases: new Map(),
    schedules: new Map(),
    backfills: new Map(),
    workers: new Map(),
    wakeListeners: new Set(),
    closed: false,
    counter: 0,
  };
}

/** The next value of the store's counter. */
export function nextSeq(store: MemoryStore): number {
  store.counter += 1;
  return store.counter;
}

/** A fresh id such as `claim-7`: unique within the store. */
export function nextId(store: MemoryStore, prefix: string): string {
  return `${prefix}-${nextSeq(store)}`;
}

/** Throws `X_DRIVER_CLOSED` once the driver is closed. Every public method calls it first. */
export function assertOpen(store: MemoryStore): void {
  if (store.closed)
    throw memoryError('X_DRIVER_CLOSED', 'The memory job driver was closed; create a new one.');
}

/** The dedupe scope of a row: `(name, tenantId, idempotencyKey)`, with a null tenant kept apart from any string. */
export function dedupeScope(row: Pick<JobRecord, 'name' | 'tenantId' | 'idempotencyKey'>): string {
  return JSON.stringify([row.name, row.tenantId, row.idempotencyKey]);
}

/**
 * The one place a row changes state, so the live-key index always agrees with the rows:
 * entering a live state takes the scope, leaving it frees the scope.
 */
export function moveTo(store: MemoryStore, row: MemoryJobRow, state: JobState): void {
  const scope = dedupeScope(row);
  if (isLiveState(state)) store.liveKeys.set(scope, row.id);
  else if (store.liveKeys.get(scope) === row.id) store.liveKeys.delete(scope);
  row.state = state;
}

/** Deletes a row and its steps, freeing its dedupe scope. */
export function forgetRow(store: MemoryStore, row: MemoryJobRow): void {
  const scope = dedupeScope(row);
  if (store.liveKeys.get(scope) === row.id) store.liveKeys.delete(scope);
  store.jobs.delete(row.id);
  store.steps.delete(row.runId);
}

/** The row `jobId` when it is `running` under `token`: the fence every settle and step write passes. */
export function heldRow(store: MemoryStore, jobId: string, token: string): MemoryJobRow | undefined {
  const row = store.jobs.get(jobId);
  return row !== undefined && row.state === 'running' && row.token === token ? row : undefined;
}

/** True when the row can be claimed at `now`. */
export function isDue(row: MemoryJobRow, now: number): boolean {
  switch (row.state) {
    case 'ready':
      return true;
    case 'delayed':
    case 'suspended':
      return row.runAt <= now;
    case 'running':
      return row.leaseExpiresAt !== null && row.leaseExpiresAt <= now;
    default:
      return false;
  }
}

/** Tells wake subscribers that `queue` has due work. Delivered after the current operation, never inside it. */
export function notifyDue(store: MemoryStore, queue: string): void {
  for (const listener of store.wakeListeners) {
    queueMicrotask(() => {
      try {
        listener(queue);
      } catch {
        // A wake is a hint: a throwing listener must not break the write that triggered it.
      }
    });
  }
}
