import { JobsError } from '@x/jobs-core';

/**
 * Every error code @x/jobs-scheduler throws, with its one-line meaning. Codes are the contract;
 * messages may change.
 */
export const SCHEDULER_ERROR_CODES = {
  X_TASK_CRON_INVALID:
    'A task cron is not a 5-field (or 6-field, with seconds) pattern croner accepts, or it never matches.',
  X_TASK_TZ_INVALID: "A task tz is missing or is not an IANA time zone this runtime knows ('Bogota').",
  X_TASK_DECLARATION_INVALID:
    'A task field has an invalid value (name, catchUp, maxCatchUp, enqueue), or enqueue() answered something other than [job, input] pairs.',
  X_SCHEDULER_UNSAFE:
    'The driver has no lease store or no schedule store, and no leader/state was passed explicitly.',
  X_SCHEDULER_OPTIONS_INVALID:
    'createScheduler, a leader/state factory or nextOccurrences was given an invalid option or argument.',
} as const;

/** A code @x/jobs-scheduler can throw. */
export type SchedulerErrorCode = keyof typeof SCHEDULER_ERROR_CODES;

/** Builds a scheduler error: `throw schedulerError('X_TASK_TZ_INVALID', '…', { field: 'tz' })`. */
export function schedulerError(
  code: SchedulerErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<SchedulerErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}
