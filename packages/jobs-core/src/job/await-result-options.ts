import type { JobDriver } from '../driver/job-driver.js';
import type { Duration } from '../values/duration.js';

/** Options of `awaitResult` and `enqueue(…).result()`. */
export interface AwaitResultOptions {
  /** Give up after this long with `X_JOB_RESULT_TIMEOUT` (the job is untouched). (Default: no limit) */
  readonly timeout?: Duration;
  /** Give up when aborted, with `X_JOB_RESULT_ABORTED` (the job is untouched). */
  readonly signal?: AbortSignal;
  /** The driver whose row is read. (Default: the ambient `jobDriver()`) */
  readonly driver?: JobDriver;
  /**
   * The longest the fallback poll waits between two reads of the row. (Default: 1 s; 5 s when the
   * driver delivers settle wakes, `driver.wake.subscribeSettled`)
   */
  readonly poll?: Duration;
}
