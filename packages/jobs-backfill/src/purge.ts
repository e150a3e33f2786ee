import { type Clock, type JobHandle, job, maybeJobDriver, type RetryPolicy, systemClock } from '@x/jobs-core';
import { z } from 'zod';
import { registerBackfillErrorRetry } from './errors.js';
import { type PurgeTargets, readPurgeTargets, readRemoved } from './purge-target.js';
import { readName } from './read-backfill-definition.js';

/** A `purge()` declaration. */
export interface PurgeDefinition {
  /** The durable name: the job's name and its live idempotency key. Required. */
  readonly name: string;
  /** What it sweeps: a list, or a thunk read once per attempt (never captured at declaration). */
  readonly targets: PurgeTargets;
  /** Where the pass reads its one clock reading. (Default: the ambient driver's clock, else the wall clock) */
  readonly clock?: Clock;
  /** (Default: 'default') */
  readonly queue?: string;
  /** (Default: core's job default) */
  readonly retry?: RetryPolicy;
}

/** What a purge pass answers. */
export interface PurgeResult {
  readonly name: string;
  /** The one clock reading every target was given. */
  readonly nowMs: number;
  /** Rows removed, per target, in target order. */
  readonly removed: Readonly<Record<string, number>>;
  readonly total: number;
}

/** The handle `purge()` answers: a job enqueued with `{}`. */
export type PurgeHandle = JobHandle<Record<string, never>, PurgeResult, Record<string, never>>;

/**
 * Declares a retention sweep as a job: one durable step per target (`purge:<name>`, so a killed
 * attempt resumes at the target it stopped on), all given one clock reading taken once per pass
 * (the `clock` step, replayed on retries). Two targets under one name are refused before the first
 * delete (`X_PURGE_TARGET_DUPLICATE`). Fire it from a cron task: `task(purgeSchedule(sweep))`.
 */
export function purge(definition: PurgeDefinition): PurgeHandle {
  registerBackfillErrorRetry();
  const name = readName('purge()', definition?.name);
  const { targets, clock } = definition;
  if (typeof targets !== 'function' && !Array.isArray(targets)) readPurgeTargets(name, targets);
  return job({
    name,
    input: z.object({}),
    idempotencyKey: () => name,
    tenant: 'none',
    ...(definition.queue === undefined ? {} : { queue: definition.queue }),
    ...(definition.retry === undefined ? {} : { retry: definition.retry }),
    async run({ step }): Promise<PurgeResult> {
      const list = readPurgeTargets(name, targets);
      const nowMs = await step.run('clock', () => (clock ?? maybeJobDriver() ?? systemClock).now());
      const removed: Record<string, number> = {};
      let total = 0;
      for (const target of list) {
        const count = await step.run(`purge:${target.name}`, async (signal) =>
          readRemoved(name, target.name, await target.purgeExpired(nowMs, signal)),
        );
        removed[target.name] = count;
        total += count;
      }
      return { name, nowMs, removed, total };
    },
  }) as unknown as PurgeHandle;
}
