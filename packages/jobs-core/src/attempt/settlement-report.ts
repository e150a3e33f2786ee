import { signalSettled } from '../caller/settle-signal.js';
import { errorCode } from '../errors/jobs-error.js';
import { announceChildSettled, CHILD_KEY_PREFIX } from '../steps/child-link.js';
import { attemptFailure, failureLogFields, recordOnSpan } from './attempt-failure.js';
import type { AttemptScope } from './attempt-scope.js';
import type { ExecutionResult } from './execution-settings.js';
import { callSettled } from './settled-hook.js';
import type { Settlement } from './settlement.js';

/** The result of every completed run (shared: results are read, never changed). */
const COMPLETED: ExecutionResult = Object.freeze({ outcome: 'completed', code: null });
const SUSPENDED: ExecutionResult = Object.freeze({ outcome: 'suspended', code: null });

/**
 * After a settle landed: the log line, the metric and `onSettled` of its kind, and the result
 * the execution answers. (An event published between a wait's look and its suspend is the driver's
 * to catch: its suspend makes the run due at once, see `NackOptions`.)
 */
export function reportLanded(
  scope: AttemptScope,
  settlement: Exclude<Settlement, { kind: 'lost' | 'unwind' }>,
): ExecutionResult | Promise<ExecutionResult> {
  if (settlement.kind !== 'ack') return reportOther(scope, settlement);
  scope.settings.metrics?.outcome(scope.job, 'completed', performance.now() - scope.began);
  signalSettled(scope.job.id);
  if (scope.job.idempotencyKey.startsWith(CHILD_KEY_PREFIX)) {
    return announce(scope).then(() => reportCompleted(scope, settlement.result));
  }
  return reportCompleted(scope, settlement.result);
}

function reportCompleted(scope: AttemptScope, result: unknown): ExecutionResult | Promise<ExecutionResult> {
  const definition = scope.definition;
  if (definition?.onSettled === undefined) return COMPLETED; // the hot path: no promise, no frame
  return callSettled(scope, definition, {
    outcome: 'completed',
    input: scope.input,
    result,
    code: null,
    error: null,
    stopReason: null,
  }).then(() => COMPLETED);
}

async function reportOther(
  scope: AttemptScope,
  settlement: Exclude<Settlement, { kind: 'lost' | 'unwind' | 'ack' }>,
): Promise<ExecutionResult> {
  const { settings, job, definition } = scope;
  const { logger, metrics } = settings;
  switch (settlement.kind) {
    case 'retry': {
      const failure = attemptFailure(scope, settlement.failure);
      logger.log('warn', 'jobs.attempt.failed', {
        ...scope.logFields(),
        ...failureLogFields(failure),
        retryInMs: settlement.delayMs,
      });
      recordOnSpan(scope, failure);
      metrics?.outcome(job, 'retried', performance.now() - scope.began);
      return { outcome: 'retried', code: settlement.failure.record.code };
    }
    case 'dead': {
      const { record, stopReason } = settlement;
      const failure = attemptFailure(scope, settlement.failure);
      logger.log('error', 'jobs.dead', {
        ...scope.logFields(),
        ...failureLogFields(failure),
        code: record.code, // the row's lastError code (a refused settle's own)
        stop: stopReason,
      });
      recordOnSpan(scope, failure);
      metrics?.outcome(job, 'dead', performance.now() - scope.began);
      signalSettled(job.id);
      await announce(scope);
      if (definition !== undefined) {
        await callSettled(scope, definition, {
          outcome: 'failed',
          input: scope.inputParsed ? scope.input : undefined,
          result: undefined,
          code: record.code,
          error: record,
          stopReason,
        });
      }
      return { outcome: 'dead', code: record.code };
    }
    case 'suspend': {
      metrics?.outcome(job, 'suspended', performance.now() - scope.began);
      return SUSPENDED;
    }
    case 'release':
      if (settlement.key !== undefined) {
        const event =
          settlement.code === 'X_JOB_RATE_LIMITED' ? 'jobs.rate-limit.deferred' : 'jobs.concurrency.deferred';
        logger.log('debug', event, {
          ...scope.logFields(),
          key: settlement.key,
          delayMs: settlement.delayMs,
        });
      }
      metrics?.outcome(job, 'released', performance.now() - scope.began);
      // Read after the nack's own `now`: never earlier than the run time the row was given.
      return settlement.delayMs > 0
        ? { outcome: 'released', code: settlement.code, runAt: scope.driver.now() + settlement.delayMs }
        : { outcome: 'released', code: settlement.code };
  }
}

/** The row is no longer this attempt's: find out whether it was cancelled, and report. */
export async function reportLost(scope: AttemptScope): Promise<ExecutionResult> {
  const { settings, job, driver, definition } = scope;
  const detail = await driver.introspect?.get(job.id).catch(() => null);
  if (detail?.state === 'cancelled') {
    settings.logger.log('info', 'jobs.cancelled', scope.logFields());
    settings.metrics?.outcome(job, 'cancelled', performance.now() - scope.began);
    // Admission, the first phase, found the definition already (undefined: no such job here).
    if (definition !== undefined) {
      await callSettled(scope, definition, {
        outcome: 'cancelled',
        input: scope.inputParsed ? scope.input : undefined,
        result: undefined,
        code: 'X_JOB_LEASE_LOST',
        error: null,
        stopReason: null,
      });
    }
    return { outcome: 'cancelled', code: 'X_JOB_LEASE_LOST' };
  }
  settings.logger.log('warn', 'jobs.claim.superseded', scope.logFields());
  settings.metrics?.outcome(job, 'lease-lost', performance.now() - scope.began);
  return { outcome: 'lease-lost', code: 'X_JOB_LEASE_LOST' };
}

/** A child of `step.invoke` reached done or dead: wake its parent (best effort, see `child-link`). */
async function announce(scope: AttemptScope): Promise<void> {
  try {
    await announceChildSettled(scope.driver, scope.job.id, scope.job.idempotencyKey);
  } catch (error) {
    scope.settings.logger.log('warn', 'jobs.invoke.announce-failed', {
      ...scope.logFields(),
      code: errorCode(error) ?? null,
    });
  }
}
