import type { StopReason } from '../driver/job-state.js';
import { decideRetry } from '../retry/decide-retry.js';
import type { RetryPolicy } from '../retry/retry-policy.js';
import { type Failure, failureOf } from '../steps/failure.js';
import type { StopCause } from './attempt-stop.js';
import type { AttemptOutcome, Settlement } from './settlement.js';

/** The facts {@link decideSettlement} decides on. */
export interface SettlementFacts {
  /** Why the attempt was stopped from outside, if it was. */
  readonly cause: StopCause | undefined;
  /** What the attempt came to. */
  readonly outcome: AttemptOutcome;
  /** The attempt's number (1-based). */
  readonly attempt: number;
  /** The job's retry policy (the default policy for a job this worker does not know). */
  readonly policy: RetryPolicy;
  /** The job's declared attempts, for the row's message; 0 for a job this worker does not know. */
  readonly retryAttempts: number;
  /** True when the job `compensates` and completed steps registered compensators. */
  readonly unwindable: boolean;
  /** Source of jitter. (Default: Math.random) */
  readonly random?: () => number;
}

/**
 * Stop cause × outcome × policy → exactly one settlement, purely. In order:
 *
 * 1. a refused renewal (cancelled, reclaimed) or `start` refused → `lost`: nothing is written;
 * 2. `refused` → `dead`, terminal; `exhausted` → `dead`, attempts-exhausted; `deferred` → `release`;
 * 3. `returned` → `ack`, and `suspended` → `suspend`, whatever stopped the attempt after (a
 *    lapsed window included: the settle is fenced, so it lands only if the row is still ours);
 * 4. a lapsed window (not refused) → `lost`: the row is left to lapse and be redelivered, as a
 *    crashed worker's would be;
 * 5. a drain → `release` uncounted (`X_DRAINING`);
 * 6. `buried` → `unwind` when there is something to undo, else `dead`;
 * 7. `threw`, or `stopped` by a timeout or a lost slot → {@link decideRetry}: `retry`, or for good
 *    (`unwind` when there is something to undo, else `dead`).
 */
export function decideSettlement(facts: SettlementFacts): Settlement {
  const { cause, outcome } = facts;
  if (cause?.kind === 'lease-lost' && cause.refused) return LOST;
  switch (outcome.kind) {
    case 'not-ours':
      return LOST;
    case 'refused':
      return dead(facts, outcome.failure, 'terminal');
    case 'exhausted':
      return dead(facts, outcome.failure, 'attempts-exhausted');
    case 'deferred':
      return { kind: 'release', delayMs: outcome.delayMs, code: outcome.code, key: outcome.key };
    case 'returned':
      return { kind: 'ack', result: outcome.result };
    case 'suspended':
      return { kind: 'suspend', suspension: outcome.suspension };
    default:
      break;
  }
  if (cause?.kind === 'lease-lost') return LOST;
  if (cause?.kind === 'drain') return { kind: 'release', delayMs: 0, code: 'X_DRAINING' };
  if (outcome.kind === 'buried') return forGood(facts, outcome.failure, outcome.stopReason);
  const error = outcome.kind === 'threw' ? outcome.error : cause?.error;
  const failure: Failure = failureOf(error);
  const decision = decideRetry({
    policy: facts.policy,
    attempt: facts.attempt,
    error,
    ...(facts.random === undefined ? {} : { random: facts.random }),
  });
  if (decision.action === 'retry') return { kind: 'retry', delayMs: decision.delayMs, failure };
  return forGood(facts, failure, decision.stopReason);
}

const LOST: Settlement = Object.freeze({ kind: 'lost' });

function forGood(facts: SettlementFacts, failure: Failure, stopReason: StopReason): Settlement {
  return facts.unwindable ? { kind: 'unwind', failure, stopReason } : dead(facts, failure, stopReason);
}

/**
 * A `dead` settlement. A terminal failure before the last attempt says so in the row's message,
 * so `x-jobs show` tells "terminal on attempt 2 of 5" from a spent budget.
 */
export function dead(
  facts: Pick<SettlementFacts, 'attempt' | 'retryAttempts'>,
  failure: Failure,
  stopReason: StopReason,
): Settlement {
  const attempts = facts.retryAttempts;
  const record =
    stopReason === 'terminal' && facts.attempt < attempts
      ? {
          code: failure.record.code,
          message: `${failure.record.message} [terminal on attempt ${facts.attempt} of ${attempts}]`,
        }
      : failure.record;
  return { kind: 'dead', failure, record, stopReason };
}
