import type { ClaimedJob } from '../driver/claim.js';
import { coreError } from '../errors/core-error.js';
import { mayStart } from '../job/attempt-budget.js';
import { failureOf, leaseLostError } from '../steps/failure.js';
import type { AttemptScope } from './attempt-scope.js';
import type { LeaseKeeper } from './lease-keeper.js';
import type { AttemptOutcome, Settlement } from './settlement.js';

/**
 * Phase 3, start: the attempt budget, then `driver.start`, right before the body (so a claim that
 * waited in a prefetch buffer and died with its process was never counted). `next` gets, exactly
 * once (synchronously unless the start is awaited):
 *
 * - `attempt > maxAttempts` (every allowed attempt started, none settled: a body that kills its
 *   process each time) → `exhausted`: dead, `X_JOB_MAX_ATTEMPTS`, the body not started;
 * - the claim started it already (`ClaimedJob.started`) → undefined at once;
 * - a row's first attempt on a fresh claim ({@link overlapsStart}), unless the worker awaits every
 *   start (`awaitEveryStart`) → undefined at once: the body runs while its start is in flight
 *   (`scope.startLanding`, which the settle waits for). A start that answers false stops the
 *   body as a refused lease (`X_JOB_LEASE_LOST`, nothing settled); one that throws leaves the
 *   attempt to be counted before its settle (`countUnstarted`);
 * - otherwise the start is awaited: false (cancelled or reclaimed while buffered) → `not-ours`,
 *   nothing settled; a throw → `threw`; else undefined once one attempt is counted and the lease
 *   extended (the keeper counts it as landed).
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
  if (scope.settings.awaitEveryStart !== true && overlapsStart(job)) {
    scope.startLanding = sent.then(
      (started) => {
        scope.startLanding = undefined;
        if (!started) {
          scope.stop.stop({ kind: 'lease-lost', error: leaseLostError(job.id), refused: true });
          return;
        }
        counted(scope, keeper, sentAt);
      },
      () => {
        // Counted before the settle instead (countUnstarted); the lease from the claim still holds.
        scope.startLanding = undefined;
        scope.startFailed = true;
      },
    );
    next(undefined);
    return;
  }
  sent.then(
    (started) => {
      if (!started) return next(NOT_OURS);
      counted(scope, keeper, sentAt);
      next(undefined);
    },
    (error: unknown) => next({ kind: 'threw', error }),
  );
}

/**
 * The decide phase stops waiting for an overlapped start: the lease was lost while it was in
 * flight, so the attempt is decided `lost` without it (a late answer still counts it, above).
 */
export function abandonStartLanding(scope: AttemptScope): void {
  scope.startLanding = undefined;
}

/**
 * True when this attempt's body may run while its start is in flight rather than after it lands:
 * the row's first attempt (`attempt === 1`) on a claim the driver reports as fresh (`lapsed ===
 * false`: no earlier holder's lease lapsed on it; a driver that does not say is awaited). A
 * worker's bodies then follow one another without a round trip each, and starts and acks leave
 * in large batches. The cost is bounded: a process that dies before such a start lands leaves the
 * row uncounted, but its next claim is `lapsed`, and every start after it is awaited, so a body
 * that kills its process every time runs at most once more than `attempts` (a worker with
 * `awaitEveryStart` awaits this start too, for exactly `attempts`). A first attempt
 * cancelled while its claim waited in a buffer may begin and is stopped when its start answers
 * false, as a running job's cancel is.
 */
export function overlapsStart(job: ClaimedJob): boolean {
  return job.attempt === 1 && job.lapsed === false;
}

/** A start sent at `sentAt` landed: the attempt is counted and its lease renewed from then. */
function counted(scope: AttemptScope, keeper: LeaseKeeper, sentAt: number): void {
  keeper.landed(sentAt);
  scope.started = true;
}

const NOT_OURS: AttemptOutcome = Object.freeze({ kind: 'not-ours' });

/**
 * A claim that fails before its body started (unknown job, refused input, a throwing
 * `concurrency.key`, …) still spends an attempt when it is retried or dead-lettered, so a row no
 * worker can run ends after `attempts` tries like any other: this counts it (`driver.start`)
 * before such a settle (and before the ack of a body whose overlapped start threw, so a done row
 * shows the attempt it ran). Answers `lost` when the claim no longer holds the row; a `start` that
 * throws counts nothing and the settle goes ahead.
 */
export async function countUnstarted(
  scope: AttemptScope,
  keeper: LeaseKeeper,
  settlement: Settlement,
): Promise<Settlement> {
  if (scope.started) return settlement;
  // A body that ran while its start failed is counted before its ack too.
  if (!COUNTED.has(settlement.kind) && !(scope.startFailed && settlement.kind === 'ack')) return settlement;
  const job = scope.job;
  const sentAt = performance.now();
  try {
    if (!(await scope.driver.start(job.id, job.claim, scope.settings.visibilityTimeoutMs)))
      return { kind: 'lost' };
    counted(scope, keeper, sentAt);
  } catch {
    // The settle that follows is retried and reported on its own.
  }
  return settlement;
}

/** The settlements that spend an attempt. */
const COUNTED: ReadonlySet<Settlement['kind']> = new Set(['retry', 'dead', 'unwind']);
