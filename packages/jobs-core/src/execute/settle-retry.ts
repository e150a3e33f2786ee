import { errorCode } from '../errors/jobs-error.js';

/**
 * Runs a settle (ack, nack) and retries it briefly when the backend is unreachable
 * (`X_DRIVER_UNAVAILABLE`), so a connection blip does not cost the attempt. Other errors, and the
 * last failure, are thrown. A settle is fenced, so a retry after a lost reply answers false rather
 * than settling twice.
 */
export function settleWithRetry<T>(
  settle: () => Promise<T>,
  delaysMs: readonly number[] = [50, 250, 1000],
): Promise<T> {
  // The first try is a plain call: a settle that lands (nearly all of them) costs no retry loop.
  let first: Promise<T>;
  try {
    first = settle();
  } catch (error) {
    first = Promise.reject(error);
  }
  return first.catch((error: unknown) => retry(settle, delaysMs, error));
}

/** The retries after a first failure: each waits its delay; only X_DRIVER_UNAVAILABLE is retried. */
async function retry<T>(
  settle: () => Promise<T>,
  delaysMs: readonly number[],
  firstError: unknown,
): Promise<T> {
  let error = firstError;
  for (const delay of delaysMs) {
    if (errorCode(error) !== 'X_DRIVER_UNAVAILABLE') throw error;
    await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      return await settle();
    } catch (next) {
      error = next;
    }
  }
  throw error;
}
