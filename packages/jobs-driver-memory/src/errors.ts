import { JobsError } from '@x/jobs-core';

/**
 * Every code the memory driver throws, with its meaning here. Two are core's (the contract's own
 * codes); `X_CLOCK_TIME_INVALID` is this package's.
 */
export const MEMORY_ERROR_CODES = {
  X_DRIVER_CLOSED: "A call reached the driver after close() (core's refuseAfterClose guard answers it).",
  X_JOB_DUPLICATE:
    "An enqueue met a live row of its (name, tenantId, idempotencyKey) under onConflict: 'error'.",
  X_CLOCK_TIME_INVALID: 'virtualClock().set() was given a time that is not a finite epoch ms.',
} as const satisfies Record<string, string>;

/** A code the memory driver throws. */
export type MemoryErrorCode = keyof typeof MEMORY_ERROR_CODES;

/** The one way this package builds an error: `throw memoryError('X_DRIVER_CLOSED', '…')`. */
export function memoryError(
  code: MemoryErrorCode,
  message: string,
  meta?: Record<string, unknown>,
): JobsError<MemoryErrorCode> {
  return new JobsError(code, message, meta === undefined ? {} : { meta });
}
