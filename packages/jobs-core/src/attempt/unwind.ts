import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import { failureOf } from '../steps/failure.js';
import type { AttemptScope } from './attempt-scope.js';
import { dead } from './decide-settlement.js';
import type { Settlement } from './settlement.js';

/**
 * Phase 6, unwind: a run that failed for good writes its `unwinding` marker (from then on every
 * attempt of the run unwinds), then runs its compensators last-in first-out, each as its own
 * durable step (`compensate:<name>`, a completed one is skipped), under the unwind's own signal
 * (a drain or a lost lease aborts it, the body's timeout does not). Answers what to settle:
 *
 * - every compensator completed → `dead` with the run's failure and stop reason;
 * - a compensator threw → `dead`, terminal, `X_JOB_COMPENSATION_FAILED` (both codes in its meta);
 * - a drain interrupted it → `release` uncounted: the next attempt resumes the unwind;
 * - the lease was refused meanwhile → `lost`.
 */
export async function unwind(
  scope: AttemptScope,
  settlement: Extract<Settlement, { kind: 'unwind' }>,
): Promise<Settlement> {
  const { failure, stopReason } = settlement;
  const facts = { attempt: scope.job.attempt, retryAttempts: scope.definition?.retry.attempts ?? 0 };
  const runner = scope.runner;
  if (runner === undefined) return dead(facts, failure, stopReason);
  const signal = scope.stop.unwind.signal;
  try {
    await runner.markUnwinding(failure.record, stopReason, signal);
    for (const pending of [...runner.compensations].reverse()) await runner.compensate(pending, signal);
  } catch (error) {
    const cause = scope.stop.cause;
    if (cause?.kind === 'lease-lost') return { kind: 'lost' };
    if (cause?.kind === 'drain') return { kind: 'release', delayMs: 0, code: 'X_DRAINING' };
    const wrapped = coreError(
      'X_JOB_COMPENSATION_FAILED',
      `Compensating job '${scope.job.name}' failed: ${error instanceof Error ? error.message : String(error)}`,
      { failedCode: failure.record.code, compensatorCode: errorCode(error) ?? null },
      error,
    );
    return dead(facts, failureOf(wrapped), 'terminal');
  }
  return dead(facts, failure, stopReason);
}
