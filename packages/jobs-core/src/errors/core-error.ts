import type { CoreErrorCode } from './codes.js';
import { JobsError } from './jobs-error.js';

/** Throws-ready constructor for a core error: `throw coreError('X_JOB_NOT_FOUND', '…', { id })`. */
export function coreError(
  code: CoreErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<CoreErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}
