import { coreError } from '../errors/core-error.js';
import { mayStart } from '../job/attempt-budget.js';
import type { AttemptScope } from './attempt-scope.js';
import { failureOf } from './failure.js';
import type { LeaseKeeper } from './lease-keeper.js';
import type { AttemptOutcome, Settlement } from './settlement.js';

/**
 * Phase 3, start: the attempt budget, then `driver.start`, right before the body (so a claim that
 * waited in a prefetch buffer and died with its process was never counted). `next` gets, exactly
 * once (synchronously when no `start` is sent):
 *
 * - `attempt > maxAttempts` (every allowed attempt started, none settled: a body that kills its
 *   process each time) → `exhausted`: dead, `X_JOB_MAX_ATTEMPTS`, the body not started;
 * - `start` answers false (cancelled or reclaimed while buffered) → `not-ours`: nothing settled;
 * - `start` throws → `threw`;
 * - else undefined: one attempt is counted and the lease extended (the keeper counts it as landed).
 */
export function startAttempt(
  scope: AttemptScope,
  keeper: LeaseKeeper,
  next: (outcome: AttemptOutcome | undefined) => void,
): void {
  const job = scope.job;
  if (!mayStart(job)) {
    const error = coreError(
      'X_JOB_MAX_ATTEMPTS',
      `Job '${job.name}' started all ${job.maxAttempts} of its attempts and none settled (each one's process died or its lease lapsed); dead-lettered without starting it again.`,
      { attempts: job.maxAttempts },
    );
    next({ kind: 'exhausted', failure: failureOf(error) });
    return;
  }
  // The claim started it (`ClaimOptions.start`): counted already, and its lease is fresh.
  if (scope.started) {
    next(undefined);
    return;
  }
  const sentAt = performance.now();
  let sent: Promise<boolean>;
  try {
    sent = scope.driver.start(job.id, job.claim, scope.settings.visibilityTimeoutMs);
  } catch (error) {
    next({ kind: 'threw', error });
    return;
  }
  sent.then(
    (started) => {
      if (!started) return next(NOT_OURS);
      keeper.landed(sentAt);
      scope.started = true;
      next(undefined);
    },
    (error: unknown) => next({ kind: 'threw', error }),
  );
}

const NOT_OURS: AttemptOutcome = Object.freeze({ kind: 'not-ours' });

/**
 * A claim that fails before its body started (unknown job, refused input, a throwing
 * `concurrency.key`, …) still spends an attempt when it is retried or dead-lettered, so a row no
 * worker can run ends after `attempts` tries like any other: this counts it (`driver.start`)
 * before such a settle. Answers `lost` when the claim no longer holds the row; a `start` that
 * throws counts nothing and the settle goes ahead.
 */
export async function countUnstarted(
  scope: AttemptScope,
  keeper: LeaseKeeper,
  settlement: Settlement,
): Promise<Settlement> {
  if (scope.started || !COUNTED.has(settlement.kind)) return settlement;
  const job = scope.job;
  const sentAt = performance.now();
  try {
    if (!(await scope.driver.start(job.id, job.claim, scope.settings.visibilityTimeoutMs)))
      return { kind: 'lost' };
    keeper.landed(sentAt);
    scope.started = true;
  } catch {
    // The settle that follows is retried and reported on its own.
  }
  return settlement;
}

/** The settlements that spend an attempt. */
const COUNTED: ReadonlySet<Settlement['kind']> = new Set(['retry', 'dead', 'unwind']);
