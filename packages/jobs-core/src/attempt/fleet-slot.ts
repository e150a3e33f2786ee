import { coreError } from '../errors/core-error.js';
import { errorCode, type JobsError } from '../errors/jobs-error.js';
import { failureOf } from '../steps/failure.js';
import type { AttemptScope } from './attempt-scope.js';
import { CONCURRENCY_BUSY_RETRY_MS } from './execution-settings.js';
import type { AttemptOutcome } from './settlement.js';

/**
 * Phase 2, fleet slot: takes one of the job's `concurrency` slots (a lease row in `driver.leases`,
 * held per claim, so a stale run keeps its own slot and its release cannot free the slot of the run
 * that was redelivered). Undefined when the job has no cap or a slot was taken (`scope.slot`),
 * else: `deferred` (`whenBusy: 'wait'`: offered again after {@link CONCURRENCY_BUSY_RETRY_MS},
 * uncounted) or `refused` (`whenBusy: 'fail'`: `X_JOB_CONCURRENCY_BUSY`; no lease store:
 * `X_JOB_CONCURRENCY_UNENFORCEABLE`). A `concurrency.key` that is not a non-empty string throws
 * `X_JOB_KEY_INVALID` (terminal).
 */
export async function takeFleetSlot(scope: AttemptScope): Promise<AttemptOutcome | undefined> {
  const concurrency = scope.definition?.concurrency;
  if (concurrency === undefined) return undefined;
  const { job, driver } = scope;
  const leases = driver.leases;
  if (leases === undefined) {
    const error = coreError(
      'X_JOB_CONCURRENCY_UNENFORCEABLE',
      `Job '${job.name}' declares concurrency but driver '${driver.name}' has no lease store.`,
      { jobs: [job.name] },
    );
    return { kind: 'refused', failure: failureOf(error) };
  }
  const part = concurrency.key === undefined ? undefined : concurrency.key(scope.input);
  if (part !== undefined && (typeof part !== 'string' || part === '')) {
    throw coreError(
      'X_JOB_KEY_INVALID',
      `${job.name}: concurrency.key(input) must return a non-empty string, got ${part === '' ? 'an empty string' : typeof part}.`,
      { job: job.name, field: 'concurrency.key' },
    );
  }
  const key = `job:${job.name}${part === undefined ? '' : `:${part}`}`;
  scope.slot = await leases.acquire(key, `${job.id}:${job.claim.token}`, {
    limit: concurrency.limit,
    ttlMs: scope.settings.visibilityTimeoutMs,
  });
  if (scope.slot !== null) return undefined;
  if (concurrency.whenBusy === 'fail') {
    const error = coreError(
      'X_JOB_CONCURRENCY_BUSY',
      `Job '${job.name}' is at its concurrency limit of ${concurrency.limit} for '${key}' and declares whenBusy: 'fail'.`,
      { key, limit: concurrency.limit },
    );
    return { kind: 'refused', failure: failureOf(error) };
  }
  return { kind: 'deferred', delayMs: CONCURRENCY_BUSY_RETRY_MS, code: 'X_JOB_CONCURRENCY_BUSY', key };
}

/** Renews the held slot; false once another run took it over (the caller stops the attempt). */
export async function renewFleetSlot(scope: AttemptScope): Promise<boolean> {
  const slot = scope.slot;
  const leases = scope.driver.leases;
  if (slot === null || leases === undefined) return true;
  const renewed = await leases.renew(slot, scope.settings.visibilityTimeoutMs);
  if (renewed === null) return false;
  scope.slot = renewed;
  return true;
}

/** `X_JOB_SLOT_LOST` for the scope's slot. */
export function slotLostError(scope: AttemptScope): JobsError {
  return coreError(
    'X_JOB_SLOT_LOST',
    `The concurrency slot of job ${scope.job.id} lapsed and was taken by another run.`,
    { key: scope.slot?.key ?? null },
  );
}

/** Gives the slot back (a failure is logged: the slot's TTL frees it anyway). */
export async function releaseFleetSlot(scope: AttemptScope): Promise<void> {
  const slot = scope.slot;
  scope.slot = null;
  if (slot === null || scope.driver.leases === undefined) return;
  try {
    await scope.driver.leases.release(slot);
  } catch (error) {
    scope.settings.logger.log('warn', 'jobs.slot.release-failed', {
      ...scope.logFields(),
      code: errorCode(error) ?? null,
    });
  }
}
