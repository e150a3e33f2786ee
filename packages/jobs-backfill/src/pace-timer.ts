import { JobsError } from '@x/jobs-core';

/** The throttle's view of time: where it reads now and how it waits. */
export interface PaceTimer {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason (or `X_ABORTED`) as soon as it aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The wall clock and `setTimeout`: the default {@link PaceTimer}. */
export const systemPaceTimer: PaceTimer = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};

/** The signal's reason when it is an error, else `X_ABORTED`. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error
    ? signal.reason
    : new JobsError('X_ABORTED', 'The backfill pause was aborted.', { meta: {} });
}
