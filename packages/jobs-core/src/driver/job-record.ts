import type { JsonValue } from '../values/json.js';
import type { AttemptErrorRecord } from './attempt-error.js';
import type { JobErrorRecord, JobState, StopReason } from './job-state.js';
import type { JobProgress } from './nack.js';
import type { StepRecord } from './step-store.js';

/** A job row as introspection sees it. Times are epoch ms. */
export interface JobRecord {
  readonly id: string;
  readonly runId: string;
  readonly name: string;
  readonly queue: string;
  readonly state: JobState;
  readonly payload: JsonValue;
  readonly tenantId: string | null;
  readonly idempotencyKey: string;
  readonly priority: number;
  /** Attempts started so far (`JobDriver.start`); a claim alone counts none. */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly enqueuedAt: number;
  readonly runAt: number;
  /** When the current or last attempt started; null from a claim until its `start`. */
  readonly startedAt: number | null;
  /** When it reached a terminal state. */
  readonly finishedAt: number | null;
  readonly leaseExpiresAt: number | null;
  readonly workerId: string | null;
  readonly lastError: JobErrorRecord | null;
  readonly stopReason: StopReason | null;
  /** What `run` returned, in JSON form, once done. */
  readonly result: JsonValue;
  readonly progress: JobProgress | null;
  /** The event a suspended run waits for. */
  readonly waitingFor: string | null;
  readonly cancelReason: string | null;
  readonly enqueuedBy: string | null;
  readonly traceparent: string | null;
}

/** A job row with its steps and its failed attempts, for `show`. */
export interface JobDetail extends JobRecord {
  readonly steps: readonly StepRecord[];
  /**
   * Every failed attempt's record the row keeps (the newest `ATTEMPT_ERROR_LIMITS.perJob`), oldest
   * first: what the `failure` of each `retry` / `dead` nack carried, with the time it was stored.
   */
  readonly errors: readonly AttemptErrorRecord[];
}
