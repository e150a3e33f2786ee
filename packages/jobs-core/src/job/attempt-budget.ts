import type { JobState } from '../driver/job-state.js';
import { isLiveState } from '../driver/job-state.js';
import { UNWIND_MARGIN } from './unwind-margin.js';

/** What the budget rules read off a definition. */
export interface BudgetedDefinition {
  readonly retry: { readonly attempts: number };
  readonly compensates: boolean;
}

/** What the budget rules read off a claimed row. */
export interface BudgetedClaim {
  /** The number this attempt has once started: attempts started so far, plus one. */
  readonly attempt: number;
  /** The row's hard cap on started attempts. */
  readonly maxAttempts: number;
}

/**
 * The one home of the attempt budget. A row carries `maxAttempts = retry.attempts`, plus
 * {@link UNWIND_MARGIN} when the job `compensates` (so a worker that dies while unwinding the final
 * attempt leaves a row that can still finish the unwind). Every reader goes through these:
 *
 * | rule | formula |
 * |---|---|
 * | the row's cap ({@link maxAttemptsOf}, written at enqueue) | `retry.attempts + (compensates ? UNWIND_MARGIN : 0)` |
 * | a body may start ({@link mayStart}) | `attempt ≤ maxAttempts` (else dead, `X_JOB_MAX_ATTEMPTS`, body not started) |
 * | the run only unwinds ({@link pastRetries}) | `attempt > retry.attempts` (a compensating row in its margin) |
 * | `finalAttempt` ({@link isFinalAttempt}) | `attempt ≥ retry.attempts` (the comparison `decideRetry` dead-letters on) |
 * | what operators see ({@link attemptsLabel}) | `attempts/maxAttempts` while live, `attempts` once finished |
 */
export function maxAttemptsOf(definition: BudgetedDefinition): number {
  return definition.retry.attempts + (definition.compensates ? UNWIND_MARGIN : 0);
}

/** True while the row's cap allows one more body to start. */
export function mayStart(claim: BudgetedClaim): boolean {
  return claim.attempt <= claim.maxAttempts;
}

/** True when every retry was spent and only the unwind (a compensating row's margin) remains. */
export function pastRetries(claim: BudgetedClaim, definition: BudgetedDefinition): boolean {
  return claim.attempt > definition.retry.attempts;
}

/** True when a failure of this attempt will not be retried for want of attempts. */
export function isFinalAttempt(claim: BudgetedClaim, definition: BudgetedDefinition): boolean {
  return claim.attempt >= definition.retry.attempts;
}

/**
 * How a row's attempts are shown to operators, the one rule the CLI and the dashboard both print:
 * `3/7` (started / the row's cap) while the row is live, and only the attempts that started
 * (`5`) once it finished — the cap of a compensating job includes its unwind margin, so a dead
 * row that spent its 5 retries would otherwise read `5/7`, as if two attempts were left.
 */
export function attemptsLabel(job: {
  readonly state: JobState;
  readonly attempts: number;
  readonly maxAttempts: number;
}): string {
  return isLiveState(job.state) ? `${job.attempts}/${job.maxAttempts}` : String(job.attempts);
}
