import { JobsError, registerErrorRetry } from '@x/jobs-core';

/**
 * Every error code @x/jobs-consumer throws, with its one-line meaning. Codes are the contract;
 * messages may change.
 */
export const CONSUMER_ERROR_CODES = {
  X_CONSUMER_INVALID:
    'A consumer() field is missing or invalid (name, tenant, keys, open, handle, cursor, batch, flushAfter, rearm, a timeout), or a value passed as a consumer handle was not made by consumer().',
  X_CONSUMER_SELF_ENQUEUE:
    "A consumer's run enqueued its own key: the enqueue would dedupe onto the running row and arm nothing.",
} as const;

/** A code @x/jobs-consumer can throw. */
export type ConsumerErrorCode = keyof typeof CONSUMER_ERROR_CODES;

/** Builds a consumer error: `throw consumerError('X_CONSUMER_INVALID', '…', { field: 'batch' })`. */
export function consumerError(
  code: ConsumerErrorCode,
  message: string,
  meta?: Record<string, unknown>,
): JobsError<ConsumerErrorCode> {
  return new JobsError(code, message, meta === undefined ? {} : { meta });
}

let registered = false;

/**
 * Classifies this package's codes for core's retry decision, once per process: both are bugs in
 * the app's code that a retry would only repeat, so both dead-letter at once.
 */
export function registerConsumerRetryClasses(): void {
  if (registered) return;
  registered = true;
  registerErrorRetry({ X_CONSUMER_INVALID: 'terminal', X_CONSUMER_SELF_ENQUEUE: 'terminal' });
}
