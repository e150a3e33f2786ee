import { SpanStatusCode } from '@opentelemetry/api';
import type { AttemptFailure } from '../driver/attempt-error.js';
import { attemptFailureOf } from '../driver-kit/attempt-failure-of.js';
import { failureStack } from '../driver-kit/failure-stack.js';
import type { Failure } from '../steps/failure.js';
import type { AttemptScope } from './attempt-scope.js';

/** Each failure's record, built once: the nack stores it, the log line and the span show it. */
const RECORDS = new WeakMap<Failure, AttemptFailure>();

/**
 * The record of `failure` for this attempt (see `attemptFailureOf`): its attempt number, and the
 * step whose call threw the error (or an error in its `cause` chain). Built once per failure.
 */
export function attemptFailure(scope: AttemptScope, failure: Failure): AttemptFailure {
  let record = RECORDS.get(failure);
  if (record === undefined) {
    const step = scope.thrownBy?.stepOf(failure.error) ?? null;
    record = attemptFailureOf(failure.error, { attempt: scope.job.attempt, step });
    RECORDS.set(failure, record);
  }
  return record;
}

/**
 * The fields a `jobs.attempt.failed` / `jobs.dead` line carries about the error: code, class,
 * message, the step that threw and the stack with its causes (the attempt is in every line).
 */
export function failureLogFields(record: AttemptFailure): Record<string, unknown> {
  return {
    code: record.code,
    errorName: record.name,
    message: record.message,
    step: record.step,
    stack: failureStack(record),
  };
}

/**
 * Records the failure on this attempt's job span, when it is traced: an `exception` event (type,
 * message, the stack with its causes), the error code attribute, and the span's status ERROR.
 */
export function recordOnSpan(scope: AttemptScope, record: AttemptFailure): void {
  const span = scope.span;
  if (span === undefined) return;
  span.recordException({ name: record.name, message: record.message, stack: failureStack(record) });
  if (record.step !== null) span.setAttribute('x_jobs.failed_step', record.step);
  span.setStatus({ code: SpanStatusCode.ERROR, message: `${record.code}: ${record.message}` });
}
