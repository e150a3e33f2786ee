import { errorCode } from '../errors/jobs-error.js';

/**
 * Runs a settle (ack, nack) and retries it briefly when the backend is unreachable
 * (`X_DRIVER_UNAVAILABLE`), so a connection blip does not cost the attempt. Other errors, and the
 * last failure, are thrown. A settle is fenced, so a retry after a lost reply answers false rather
 * than settling twice.
 */
export async function settleWithRetry<T>(
  settle: () => Promise<T>,
  delaysMs: readonly number[] = [50, 250, 1000],
): Promise<T> {
  for (let index = 0; ; index += 1) {
    try {
      return await settle();
    } catch (error) {
      const delay = delaysMs[index];
      if (delay === undefined || errorCode(error) !== 'X_DRIVER_UNAVAILABLE') throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
