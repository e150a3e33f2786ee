import type { JobErrorRecord } from '../driver/job-state.js';
import { coreError } from '../errors/core-error.js';
import { errorCode, type JobsError } from '../errors/jobs-error.js';
import { storableText } from '../values/string-rule.js';

/** A failure the executor settles: what was thrown, and the row's record of it. */
export interface Failure {
  /** What was thrown (its retry class decides retry vs dead). */
  readonly error: unknown;
  /** What the row's `lastError` records: a code and a message, never a stack. */
  readonly record: JobErrorRecord;
}

/**
 * The row's `lastError` for a thrown value: its code (or `ERROR`) and message, never a stack.
 * Both are made storable (lone surrogates and U+0000 replaced): an error record is diagnostics,
 * so it is repaired, never refused.
 */
export function recordOf(error: unknown): JobErrorRecord {
  return {
    code: storableText(errorCode(error) ?? 'ERROR'),
    message: storableText(error instanceof Error ? error.message : String(error)),
  };
}

/** A {@link Failure} for a thrown value. */
export function failureOf(error: unknown): Failure {
  return { error, record: recordOf(error) };
}

/** `X_JOB_LEASE_LOST` for job `jobId`: cancelled, or its lease lapsed, while this worker ran it. */
export function leaseLostError(jobId: string): JobsError {
  return coreError(
    'X_JOB_LEASE_LOST',
    `Job ${jobId} was cancelled, or its lease lapsed and it was redelivered, while this worker ran it.`,
    { jobId },
  );
}
