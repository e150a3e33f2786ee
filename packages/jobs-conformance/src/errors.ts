import { JobsError } from '@x/jobs-core';

/** Every code @x/jobs-conformance throws, with its one-line meaning. */
export const CONFORMANCE_ERROR_CODES = {
  X_CONFORMANCE_OPTIONS_INVALID:
    'A conformance suite was given an invalid option (empty name, create not a function, tickMs not positive).',
} as const;

/** A code @x/jobs-conformance throws. */
export type ConformanceErrorCode = keyof typeof CONFORMANCE_ERROR_CODES;

/** The one way this package builds an error. */
export function conformanceError(
  code: ConformanceErrorCode,
  message: string,
  meta?: Record<string, unknown>,
): JobsError<ConformanceErrorCode> {
  return new JobsError(code, message, meta === undefined ? {} : { meta });
}
