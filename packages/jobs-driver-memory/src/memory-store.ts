import type { Clock, JobRecord, JobState, StepRecord, WorkerInfo } from '@x/jobs-core';
import { isLiveState, JOB_STATES } from '@x/jobs-core';
import type { BackfillRecord, EventRecord, LeaseGrant, ScheduleState } from '@x/jobs-core/driver';
import { type ClaimIndex, createClaimIndex, fileRow, unfileRow } from './claim-index.js';
import type { MemoryJobRow } from './memory-job-row.js';

/** One rate-limit key: its grants still counting (ascending epoch ms), its last refusal's retryAt, its last window. */
export interface RateLimitLog {
  grants: number[];
  lastRetryAt: number;
  perMs: number;
}

/** A published event as the memory driver holds it: the record, plus its place in the store's order. */
export interface MemoryEventRecord extends EventRecord {
  /** The store's counter at the publish: orders events against starts within one clock tick. */
  readonly seq: number;
}

/** Everything one memory driver holds. Every operation reads and writes it synchronously, so each is atomic. */
export interface MemoryStore {
  readonly clock: Clock;
  readonly jobs: Map<string, MemoryJobRow>;
  /** The rows a claim can take, per queue in claim order; kept in step with the rows by {@link moveTo} and {@link refile}. */
  readonly claimIndex: ClaimIndex;
  /** Rows per state, per queue with at least one row: kept by {@link addRow}, {@link moveTo}, {@link forgetRow}. */
  readonly stateCounts: Map<string, Record<JobState, number>>;
  /** The live row id per dedupe scope (see {@link dedupeScope}). */
  readonly liveKeys: Map<string, string>;
  readonly pausedQueues: Set<string>;
  /** The service each fair queue gave (its clock and its tenants' counters; see `fairOrder`). */
  readonly fairService: Map<string, { clock: number; readonly served: Map<string | null, number> }>;
  /** Steps per run id, by step name. */
  readonly steps: Map<string, Map<string, StepRecord>>;
  readonly events: MemoryEventRecord[];
  readonly leases: Map<string, LeaseGrant[]>;
  /** Rate-limit logs per key (see `stores/rate-limit-store.ts`). */
  readonly rateLimits: Map<string, RateLimitLog>;
  readonly schedules: Map<string, ScheduleState>;
  readonly backfills: Map<string, BackfillRecord>;
  readonly workers: Map<string, { readonly info: WorkerInfo; readonly expiresAt: number }>;
  readonly wakeListeners: Set<(queue: string) => void>;
  /** Queues with a wake not yet delivered: many writes in one tick send one wake per queue. */
  readonly pendingWakes: Set<string>;
  readonly settleListeners: Set<(jobs: readonly string[]) => void>;
  /** Ids settled and not yet told: the settles of one tick are told in one call. */
  readonly pendingSettled: string[];
  /** Source of enqueue order, tokens and ids: deterministic for a given sequence of calls. */
  counter: number;
}

/** An empty store reading time from `clock`. */
export function createMemoryStore(clock: Clock): MemoryStore {
  return {
    clock,
    jobs: new Map(),
    claimIndex: createClaimIndex(),
    stateCounts: new Map(),
    liveKeys: new Map(),
    pausedQueues: new Set(),
    fairService: new Map(),
    steps: new Map(),
    events: [],
    leases: new Map(),
    rateLimits: new Map(),
    schedules: new Map(),
    backfills: new Map(),
    workers: new Map(),
    wakeListeners: new Set(),
    pendingWakes: new Set(),
    settleListeners: new Set(),
    pendingSettled: [],
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

/**
 * Counts the start of this claim's body on the held row: one attempt, `startedAt` stamped, and the
 * start's place in the store's order kept for the suspend's look at events published since.
 */
export function markStarted(store: MemoryStore, row: MemoryJobRow, now: number): void {
  row.attempts += 1;
  row.startedAt = now;
  row.startSeq = nextSeq(store);
}

/** True while the row's attempts are below its cap, so one more start may be counted. */
export function belowCap(row: MemoryJobRow): boolean {
  return row.attempts < row.maxAttempts;
}

/** The dedupe scope of a row: `(name, tenantId, idempotencyKey)`, with a null tenant kept apart from any string. */
export function dedupeScope(row: Pick<JobRecord, 'name' | 'tenantId' | 'idempotencyKey'>): string {
  return JSON.stringify([row.name, row.tenantId, row.idempotencyKey]);
}

/** The row counts per state of `queue`, created (all zero) on its first row. */
function countsOf(store: MemoryStore, queue: string): Record<JobState, number> {
  let counts = store.stateCounts.get(queue);
  if (counts === undefined) {
    counts = Object.fromEntries(JOB_STATES.map((each) => [each, 0])) as Record<JobState, number>;
    store.stateCounts.set(queue, counts);
  }
  return counts;
}

/** Adds `delta` to the count of `state` in `queue`. */
function countState(store: MemoryStore, queue: string, state: JobState, delta: number): void {
  countsOf(store, queue)[state] += delta;
}

/** Stores a new row (in the state it was built with; then {@link moveTo} its first state). */
export function addRow(store: MemoryStore, row: MemoryJobRow): void {
  store.jobs.set(row.id, row);
  countState(store, row.queue, row.state, 1);
  if (isLiveState(row.state)) store.liveKeys.set(row.scope, row.id);
}

/**
 * The one place a row changes state, so the indexes always agree with the rows: entering a live
 * state takes the dedupe scope, leaving it frees the scope, the state counts follow, and the claim
 * index files the row anew.
 * Write the row's runAt and lease before calling it.
 */
export function moveTo(store: MemoryStore, row: MemoryJobRow, state: JobState): void {
  // A live row holds its scope already (addRow, or the move that made it live).
  const wasLive = isLiveState(row.state);
  if (isLiveState(state)) {
    if (!wasLive) store.liveKeys.set(row.scope, row.id);
  } else if (wasLive && store.liveKeys.get(row.scope) === row.id) store.liveKeys.delete(row.scope);
  if (row.state !== state) {
    const counts = countsOf(store, row.queue);
    counts[state] += 1;
    counts[row.state] -= 1;
    row.state = state;
    if (!isLiveState(state)) notifySettled(store, row.id);
  }
  fileRow(store.claimIndex, row);
}

/** Files the row in the claim index again after a write to its runAt or lease that kept its state. */
export function refile(store: MemoryStore, row: MemoryJobRow): void {
  fileRow(store.claimIndex, row);
}

/** Deletes a row and its steps, freeing its dedupe scope and its count. */
export function forgetRow(store: MemoryStore, row: MemoryJobRow): void {
  if (store.liveKeys.get(row.scope) === row.id) store.liveKeys.delete(row.scope);
  unfileRow(row);
  store.steps.delete(row.runId);
  if (!store.jobs.delete(row.id)) return;
  countState(store, row.queue, row.state, -1);
  // A queue left with no rows at all is no longer in the stats (unless paused).
  const counts = store.stateCounts.get(row.queue);
  if (counts !== undefined && JOB_STATES.every((state) => counts[state] === 0))
    store.stateCounts.delete(row.queue);
}

/**
 * The row `jobId` when it is `running` under `token`: the fence every settle and step write passes.
 * (No index by token: keeping one costs two map writes per claim, more than this lookup.)
 */
export function heldRow(store: MemoryStore, jobId: string, token: string): MemoryJobRow | undefined {
  const row = store.jobs.get(jobId);
  return row !== undefined && row.state === 'running' && row.token === token ? row : undefined;
}

/**
 * True when a waiting row is due at `now`: `ready`, or `delayed`/`suspended` past its `runAt`.
 * False for every other state (a running row with a lapsed lease is claimable, but not waiting).
 */
export function isDue(row: MemoryJobRow, now: number): boolean {
  switch (row.state) {
    case 'ready':
      return true;
    case 'delayed':
    case 'suspended':
      return row.runAt <= now;
    default:
      return false;
  }
}

/**
 * Tells wake subscribers that `queue` has due work. Delivered after the current operation, never
 * inside it, once per queue however many rows the operation made due.
 */
export function notifyDue(store: MemoryStore, queue: string): void {
  if (store.wakeListeners.size === 0 || store.pendingWakes.has(queue)) return;
  if (store.pendingWakes.size === 0) queueMicrotask(() => deliverWakes(store));
  store.pendingWakes.add(queue);
}

function deliverWakes(store: MemoryStore): void {
  const queues = [...store.pendingWakes];
  store.pendingWakes.clear();
  for (const queue of queues) {
    for (const listener of store.wakeListeners) {
      try {
        listener(queue);
      } catch {
        // A wake is a hint: a throwing listener must not break the write that triggered it.
      }
    }
  }
}

/**
 * Tells settle subscribers that job `id` reached a terminal state. Delivered after the current
 * operation, the settles of one tick in one call; nothing is kept when nobody listens.
 */
export function notifySettled(store: MemoryStore, id: string): void {
  if (store.settleListeners.size === 0) return;
  if (store.pendingSettled.length === 0) queueMicrotask(() => deliverSettled(store));
  store.pendingSettled.push(id);
}

function deliverSettled(store: MemoryStore): void {
  const jobs = store.pendingSettled.splice(0);
  for (const listener of store.settleListeners) {
    try {
      listener(jobs);
    } catch {
      // A wake is a hint: a throwing listener must not break the others.
    }
  }
}
