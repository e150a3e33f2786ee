import { redisError } from './errors.js';

/**
 * Every static key of one prefix, plus the builders for the per-row keys, all inside one
 * `{hash tag}` so the whole key space lands in one Redis Cluster slot.
 *
 * Lua scripts compute the per-row keys (`job:<id>`, `steps:<runId>`, `<state>:<queue>`,
 * `waiting:<event>`, `events:<event>`) from `base`, which every script receives as a key: they are
 * in the same slot, so Cluster serves them, but they are not declared in `KEYS` (see README,
 * "Redis Cluster").
 */
export interface KeySpace {
  /** The hash-tagged prefix every key starts with, e.g. `{xjobs}:`. Passed as a key to every script. */
  readonly base: string;
  /** Counter for the enqueue sequence and event order. */
  readonly seq: string;
  /** Hash: dedupe field (name, tenant, key) → id of the live row holding it. */
  readonly dedupe: string;
  /** Sorted set: every row id by enqueue sequence (introspection's listing order). */
  readonly jobs: string;
  /** Set: every queue that ever held a row. */
  readonly queues: string;
  /** Set: paused queues. */
  readonly paused: string;
  /** Hash: event order member → event record JSON. */
  readonly eventRecords: string;
  /** Sorted set: `<member>|<event>` by expiry. */
  readonly eventExpiry: string;
  /** Hash: worker id → worker report JSON. */
  readonly workers: string;
  /** Sorted set: worker id by the time its report lapses. */
  readonly workersSeen: string;
  /** Hash: task → `<watermark>|<paused>|<updatedAt>`. */
  readonly schedules: string;
  /** Hash: `[name, runId]` JSON → backfill record JSON. */
  readonly backfills: string;
  /** Sorted set: `[name, runId]` JSON by startedAt. */
  readonly backfillsStarted: string;
  /** The pub/sub channel wakes are published on (a channel, not a key). */
  readonly wakeChannel: string;
  /** The pub/sub channel settle wakes are published on (`settle-wake.lua`). */
  readonly settledChannel: string;
  /** Hash of one job row. */
  job(id: string): string;
  /** Hash of one run's steps: step name → encoded step. */
  steps(runId: string): string;
  /** Hash of one lease key's slots: token → `<expiresAt>|<holder>`. */
  lease(key: string): string;
  /** List of one rate-limit key's grants still counting: epoch ms, oldest first. */
  rate(key: string): string;
  /** String: the retryAt of one rate-limit key's last refusal (the tail of its line). */
  rateTail(key: string): string;
  /** Sorted set of one event name's records by publish time. */
  events(event: string): string;
}

/** The default prefix. */
export const DEFAULT_PREFIX = 'xjobs';

/** Builds the key space of `prefix`; braces in the prefix are refused (they would split the hash tag). */
export function keySpace(prefix: string): KeySpace {
  if (prefix.length === 0 || /[{}]/.test(prefix)) {
    throw redisError('X_REDIS_OPTIONS_INVALID', 'prefix must be a non-empty string without braces.', {
      prefix,
    });
  }
  const base = `{${prefix}}:`;
  return {
    base,
    seq: `${base}seq`,
    dedupe: `${base}dedupe`,
    jobs: `${base}jobs`,
    queues: `${base}queues`,
    paused: `${base}paused`,
    eventRecords: `${base}event-records`,
    eventExpiry: `${base}event-expiry`,
    workers: `${base}workers`,
    workersSeen: `${base}workers-seen`,
    schedules: `${base}schedules`,
    backfills: `${base}backfills`,
    backfillsStarted: `${base}backfills-started`,
    wakeChannel: `${base}wake`,
    settledChannel: `${base}settled`,
    job: (id) => `${base}job:${id}`,
    steps: (runId) => `${base}steps:${runId}`,
    lease: (key) => `${base}lease:${key}`,
    rate: (key) => `${base}rate:${key}`,
    rateTail: (key) => `${base}rate-tail:${key}`,
    events: (event) => `${base}events:${event}`,
  };
}
