import type { JsonValue } from '../values/json.js';
import type { ClaimRef } from './claim.js';
import type { JobErrorRecord } from './job-state.js';

/**
 * The status of one durable step.
 * - `started`: a `once` step persisted before its fn ran, or a `sleep` / `waitForEvent` that
 *   has begun (its output holds the wait's state). A plain `run` step is never stored `started`.
 * - `completed`: the output is durable; a replay answers it without calling fn. A sleep's output
 *   is `{ wakeAt }`, plus `endedEarlyAt` when a `promote` ended it.
 * - `failed`: the last attempt of this step threw (kept for `show`; the next attempt runs it
 *   again). Not written when the attempt was already aborted (timeout, lost lease, drain).
 */
export type StepStatus = 'started' | 'completed' | 'failed';

/** One persisted step of a run. */
export interface StepRecord {
  /** The step name, unique in the run: the replay key. */
  readonly name: string;
  /** The order the run first reached this step, 0-based; `retryFromStep` resets this one and later. */
  readonly position: number;
  readonly status: StepStatus;
  /**
   * Once `completed`, the JSON form of what the step returned. While `started`, a wait's state
   * (`{ since, deadline }` for `waitForEvent`, `{ wakeAt }` for `sleep`); otherwise null.
   */
  readonly output: JsonValue;
  /** The error of a failed attempt of this step. */
  readonly error: JobErrorRecord | null;
  /** Epoch ms the step was first started (or completed, if never marked started). */
  readonly startedAt: number;
  /** Epoch ms it completed, or null. */
  readonly completedAt: number | null;
}

/** The fence a step write must pass: the job row must still be `running` under this claim. */
export interface StepFence {
  readonly jobId: string;
  readonly runId: string;
  readonly claim: ClaimRef;
}

/**
 * Durable step persistence. It lives on the driver so steps and the queue share one store and
 * one failure domain.
 */
export interface StepStore {
  /** Every step recorded for `runId`, ordered by `position`. Empty for an unknown run. */
  load(runId: string): Promise<readonly StepRecord[]>;
  /**
   * Upserts one step of the run `fence.runId` (keyed by name). Fenced: answers false and writes
   * nothing unless the job `fence.jobId` is `running` under `fence.claim.token`. A later write
   * of the same name replaces status, output, error and completedAt, and keeps position and
   * startedAt.
   */
  save(fence: StepFence, step: StepRecord): Promise<boolean>;
}
