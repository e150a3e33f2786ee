import type { JobErrorRecord } from '../driver/job-state.js';
import type { NackOptions } from '../driver/nack.js';
import { errorCode } from '../errors/jobs-error.js';
import { attemptFailure } from './attempt-failure.js';
import type { AttemptScope } from './attempt-scope.js';
import { dead } from './decide-settlement.js';
import type { ExecutionResult } from './execution-settings.js';
import type { LeaseKeeper } from './lease-keeper.js';
import type { Settlement } from './settlement.js';
import { reportLanded, reportLost } from './settlement-report.js';

/** Retryable settle failures wait this long first, doubling up to {@link MAX_SETTLE_BACKOFF_MS}. */
const FIRST_SETTLE_BACKOFF_MS = 50;
const MAX_SETTLE_BACKOFF_MS = 1_000;

/** What one settle came to. */
type Landing =
  | { readonly kind: 'landed' }
  | { readonly kind: 'refused' }
  | { readonly kind: 'unreachable'; readonly error: unknown }
  | { readonly kind: 'rejected'; readonly error: unknown };

const LANDED: Landing = Object.freeze({ kind: 'landed' });
const REFUSED: Landing = Object.freeze({ kind: 'refused' });

/**
 * Phase 7, apply: writes the settlement — the **only** caller of `ack` and `nack` — then stops the
 * lease keeper and reports (log, metric, `onSettled`). Guarantees:
 *
 * - A settle that fails retryably (`X_DRIVER_UNAVAILABLE`) is retried, with backoff from 50 ms to
 *   1 s, for as long as the lease holds — the keeper goes on renewing it meanwhile — so a finished
 *   body is not redelivered through a multi-second outage. Once a whole window passed with no
 *   renewal landing it gives up (`settle-failed`, `jobs.settle.failed`): the row lapses.
 * - A settle the backend **refuses** with any other error (it cannot store the result, the error
 *   or the progress: `\u0000`, a lone surrogate, …) dead-letters the row at once, terminal, with
 *   that error's code: a body that returned is never run again for a value that cannot be stored.
 * - A fenced settle answering false, and `lost`, report the row as cancelled or superseded.
 *
 * `done` gets the result, or `fail` what threw, exactly once. Callbacks rather than a promise: on
 * the hot path (an ack that lands, no `onSettled`) the phase makes one promise, the driver call's
 * `then`.
 */
export function applySettlement(
  scope: AttemptScope,
  keeper: LeaseKeeper,
  settlement: Exclude<Settlement, { kind: 'unwind' }>,
  done: (result: ExecutionResult) => void,
  fail: (error: unknown) => void,
): void {
  if (settlement.kind === 'lost') {
    reportLost(scope).then(done, fail);
    return;
  }
  if (scope.progress !== undefined) {
    scope.progress
      .flush()
      .then(() => landAndReport(scope, keeper, settlement))
      .then(done, fail);
    return;
  }
  // The hot path: one driver call and its answer, no retry loop, no extra frame.
  let sent: Promise<boolean>;
  try {
    sent = send(scope, settlement);
  } catch (error) {
    landAndReport(scope, keeper, settlement, error).then(done, fail);
    return;
  }
  sent.then(
    (landed) => {
      let report: ExecutionResult | Promise<ExecutionResult>;
      try {
        keeper.stop();
        report = landed ? reportLanded(scope, settlement) : reportLost(scope);
      } catch (error) {
        fail(error);
        return;
      }
      if (report instanceof Promise) report.then(done, fail);
      else done(report);
    },
    (error: unknown) => landAndReport(scope, keeper, settlement, error).then(done, fail),
  );
}

/** The settle through its retries (and a refused one's terminal settle), then the report. */
async function landAndReport(
  scope: AttemptScope,
  keeper: LeaseKeeper,
  settlement: Exclude<Settlement, { kind: 'lost' | 'unwind' }>,
  firstError: unknown = NOT_TRIED,
): Promise<ExecutionResult> {
  let landing = await land(scope, keeper, settlement, firstError);
  let applied = settlement;
  if (landing.kind === 'rejected' && settlement.kind !== 'dead') {
    applied = refusedSettle(scope, settlement, landing.error);
    landing = await land(scope, keeper, applied, NOT_TRIED);
  }
  keeper.stop();
  switch (landing.kind) {
    case 'landed':
      return reportLanded(scope, applied);
    case 'refused':
      return reportLost(scope);
    default:
      scope.settings.logger.log('error', 'jobs.settle.failed', {
        ...scope.logFields(),
        code: errorCode(landing.error) ?? null,
      });
      return { outcome: 'settle-failed', code: errorCode(landing.error) ?? 'X_DRIVER_UNAVAILABLE' };
  }
}

/** The terminal settle for a settle the backend refused: dead, with the refusal's code. */
function refusedSettle(
  scope: AttemptScope,
  refused: Exclude<Settlement, { kind: 'lost' | 'unwind' }>,
  error: unknown,
): Settlement & { kind: 'dead' } {
  const code = errorCode(error) ?? 'X_JOB_SETTLE_REFUSED';
  const record = {
    code,
    message: `The backend refused to store this attempt's ${refused.kind} (${code}); dead-lettered rather than run again.`,
  };
  const facts = { attempt: scope.job.attempt, retryAttempts: 0 };
  return dead(facts, { error, record }, 'terminal') as Settlement & { kind: 'dead' };
}

/**
 * Sends the settle, retrying a retryable failure while the lease holds. `firstError` is what a
 * first try already threw (`NOT_TRIED` when none was made).
 */
async function land(
  scope: AttemptScope,
  keeper: LeaseKeeper,
  settlement: Exclude<Settlement, { kind: 'lost' | 'unwind' }>,
  firstError: unknown,
): Promise<Landing> {
  let backoff = FIRST_SETTLE_BACKOFF_MS;
  let error = firstError;
  for (;;) {
    if (error !== NOT_TRIED) {
      const code = errorCode(error);
      if (code === 'X_DRIVER_CLOSED') return { kind: 'unreachable', error };
      if (code !== 'X_DRIVER_UNAVAILABLE') return { kind: 'rejected', error };
      if (keeper.lapsed) return { kind: 'unreachable', error };
      await new Promise((resolve) => setTimeout(resolve, backoff));
      backoff = Math.min(backoff * 2, MAX_SETTLE_BACKOFF_MS);
    }
    try {
      return (await send(scope, settlement)) ? LANDED : REFUSED;
    } catch (thrown) {
      error = thrown;
    }
  }
}

/** Marks "no settle tried yet" for {@link land}. */
const NOT_TRIED: unique symbol = Symbol('not tried');

/** The one driver call of a settlement. */
function send(
  scope: AttemptScope,
  settlement: Exclude<Settlement, { kind: 'lost' | 'unwind' }>,
): Promise<boolean> {
  const { driver, job } = scope;
  if (settlement.kind === 'ack') return driver.ack(job.id, job.claim, settlement.result);
  return driver.nack(job.id, job.claim, nackOf(scope, settlement));
}

/** The error record with this attempt's span on it, so the next attempt's span can link to it. */
function traced(scope: AttemptScope, record: JobErrorRecord): JobErrorRecord {
  return scope.traceparent === undefined ? record : { ...record, traceparent: scope.traceparent };
}

function nackOf(
  scope: AttemptScope,
  settlement: Exclude<Settlement, { kind: 'lost' | 'unwind' | 'ack' }>,
): NackOptions {
  const now = scope.driver.now();
  switch (settlement.kind) {
    case 'retry':
      return {
        kind: 'retry',
        runAt: now + settlement.delayMs,
        error: traced(scope, settlement.failure.record),
        failure: attemptFailure(scope, settlement.failure),
      };
    case 'dead':
      return {
        kind: 'dead',
        error: traced(scope, settlement.record),
        stopReason: settlement.stopReason,
        failure: attemptFailure(scope, settlement.failure),
      };
    case 'suspend': {
      const { runAt, waitFor } = settlement.suspension;
      return waitFor === undefined ? { kind: 'suspend', runAt } : { kind: 'suspend', runAt, waitFor };
    }
    case 'release':
      return settlement.delayMs > 0
        ? { kind: 'release', runAt: now + settlement.delayMs }
        : { kind: 'release' };
  }
}
