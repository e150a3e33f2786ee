import { jobDriver } from '../ambient/driver-slot.js';
import type { JobIntrospection } from '../driver/introspection.js';
import type { JobDriver } from '../driver/job-driver.js';
import type { JobRecord } from '../driver/job-record.js';
import { coreError } from '../errors/core-error.js';
import { errorCode, JobsError } from '../errors/jobs-error.js';
import type { AwaitResultOptions } from '../job/await-result-options.js';
import { parseDuration } from '../values/duration.js';
import type { JsonValue } from '../values/json.js';
import { onSettledHere } from './settle-signal.js';

/** The first fallback poll waits this long, doubling up to `poll`. */
const FIRST_POLL_MS = 50;
/** The first fallback poll when the driver delivers settle wakes (the poll is then a safety net). */
const FIRST_POLL_WITH_SETTLE_WAKE_MS = 250;
/** The fallback poll's ceiling when `poll` is not given. */
export const DEFAULT_RESULT_POLL_MS = 1_000;
/** The fallback poll's ceiling when `poll` is not given and the driver delivers settle wakes. */
export const DEFAULT_RESULT_POLL_WITH_SETTLE_WAKE_MS = 5_000;

/**
 * Waits for job `id` to finish and answers its result in JSON form. Rejects with the job's own
 * failure code (its `lastError.code`, as a `JobsError` whose `meta` holds `jobId` and
 * `stopReason`) when it is dead-lettered, `X_JOB_CANCELLED` when it is cancelled,
 * `X_JOB_RESULT_TIMEOUT` / `X_JOB_RESULT_ABORTED` when the caller stops waiting first.
 *
 * It reads the row (`introspect.get`) when it starts and again whenever it may have changed:
 * at once when an executor or `cancelJob` in this process settles it; on the driver's settle wake
 * (`driver.wake.subscribeSettled`) naming the job, or a bare settle marker — which is how a job
 * settled by **another process** is heard promptly; on every push wake for the row's queue (a
 * retry, a suspension's wake); and on a bounded fallback poll, the safety net for a lost
 * notification, that starts at 50 ms and doubles up to `poll` (250 ms doubling to 5 s by default
 * when the driver delivers settle wakes). A row not found yet (an outbox still holding it) is
 * waited for.
 */
export function awaitResult<Result = JsonValue>(
  id: string,
  options: AwaitResultOptions = {},
): Promise<Result> {
  const driver = options.driver ?? jobDriver();
  const introspect = driver.introspect;
  if (introspect === undefined) {
    return Promise.reject(
      coreError(
        'X_DRIVER_INTROSPECTION_REQUIRED',
        `awaitResult: driver '${driver.name}' has no introspection to read job ${id}.`,
        { id },
      ),
    );
  }
  let timeoutMs: number | undefined;
  let pollMs: number;
  try {
    timeoutMs =
      options.timeout === undefined ? undefined : parseDuration(options.timeout, 'awaitResult timeout');
    pollMs =
      options.poll !== undefined
        ? parseDuration(options.poll, 'awaitResult poll')
        : driver.wake?.subscribeSettled !== undefined
          ? DEFAULT_RESULT_POLL_WITH_SETTLE_WAKE_MS
          : DEFAULT_RESULT_POLL_MS;
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise<Result>((resolve, reject) => {
    new ResultWait(id, introspect, driver, pollMs, resolve as (value: unknown) => void, reject).start(
      timeoutMs,
      options.signal,
    );
  });
}

/** One pending {@link awaitResult}: its listeners, its timers, and the read in flight. */
class ResultWait {
  readonly #cleanups: (() => void)[] = [];
  #finished = false;
  #reading = false;
  #again = false;
  #queue: string | undefined;
  #poll: NodeJS.Timeout | undefined;
  #delay = FIRST_POLL_MS;

  constructor(
    readonly id: string,
    readonly introspect: JobIntrospection,
    readonly driver: JobDriver,
    readonly pollMs: number,
    readonly resolve: (value: unknown) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  start(timeoutMs: number | undefined, signal: AbortSignal | undefined): void {
    if (signal?.aborted) {
      this.#fail(aborted(this.id, signal.reason));
      return;
    }
    if (signal !== undefined) {
      const onAbort = () => this.#fail(aborted(this.id, signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      this.#cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
    if (timeoutMs !== undefined) {
      const timer = setTimeout(() => {
        this.#fail(
          coreError('X_JOB_RESULT_TIMEOUT', `Job ${this.id} did not finish within ${timeoutMs} ms.`, {
            id: this.id,
            timeoutMs,
          }),
        );
      }, timeoutMs);
      this.#cleanups.push(() => clearTimeout(timer));
    }
    this.#cleanups.push(onSettledHere(this.id, () => this.#read()));
    const wake = this.driver.wake;
    if (wake !== undefined) {
      this.#cleanups.push(wake.subscribe((queue) => (queue === this.#queue ? this.#read() : undefined)));
      if (wake.subscribeSettled !== undefined) {
        this.#delay = Math.min(FIRST_POLL_WITH_SETTLE_WAKE_MS, this.pollMs);
        this.#cleanups.push(
          wake.subscribeSettled((jobs) =>
            jobs === null || jobs.includes(this.id) ? this.#read() : undefined,
          ),
        );
      }
    }
    this.#cleanups.push(() => clearTimeout(this.#poll));
    this.#read();
  }

  /** Reads the row now (or once more after the read in flight), then arms the next poll. */
  #read(): void {
    if (this.#finished) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    clearTimeout(this.#poll);
    void this.#readLoop().finally(() => {
      this.#reading = false;
      if (this.#finished) return;
      this.#poll = setTimeout(() => this.#read(), this.#delay);
      this.#delay = Math.min(this.#delay * 2, this.pollMs);
    });
  }

  async #readLoop(): Promise<void> {
    do {
      this.#again = false;
      let row: JobRecord | null;
      try {
        row = await this.introspect.get(this.id);
      } catch (error) {
        // A backend outage is waited out on the poll; anything else ends the wait.
        if (errorCode(error) !== 'X_DRIVER_UNAVAILABLE') this.#fail(error);
        return;
      }
      if (this.#finished) return;
      if (row !== null) {
        this.#queue = row.queue;
        if (this.#settle(row)) return;
      }
    } while (this.#again);
  }

  /** Ends the wait from a finished row; false while it is live. */
  #settle(row: JobRecord): boolean {
    switch (row.state) {
      case 'done':
        this.#end(() => this.resolve(row.result));
        return true;
      case 'dead': {
        const code = row.lastError?.code ?? 'ERROR';
        const message = `Job ${row.id} ('${row.name}') failed: ${row.lastError?.message ?? 'no error recorded'}`;
        this.#fail(new JobsError(code, message, { meta: { jobId: row.id, stopReason: row.stopReason } }));
        return true;
      }
      case 'cancelled':
        this.#fail(
          coreError('X_JOB_CANCELLED', `Job ${row.id} ('${row.name}') was cancelled.`, {
            jobId: row.id,
            reason: row.cancelReason,
          }),
        );
        return true;
      default:
        return false;
    }
  }

  #fail(error: unknown): void {
    this.#end(() => this.reject(error));
  }

  #end(answer: () => void): void {
    if (this.#finished) return;
    this.#finished = true;
    for (const cleanup of this.#cleanups) cleanup();
    answer();
  }
}

function aborted(id: string, reason: unknown) {
  return coreError(
    'X_JOB_RESULT_ABORTED',
    `Waiting for job ${id} was aborted.`,
    { id, reason: errorCode(reason) ?? null },
    reason,
  );
}
