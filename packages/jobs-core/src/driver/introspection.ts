import type { JsonValue } from '../values/json.js';
import type { JobDetail, JobRecord } from './job-record.js';
import type { JobState } from './job-state.js';
import type { WorkerInfo } from './worker-info.js';

/** Filter for {@link JobIntrospection.list}. */
export interface JobListQuery {
  readonly queue?: string;
  readonly state?: JobState;
  readonly name?: string;
  readonly tenantId?: string;
  /** (Default: 50, at most 1000) */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

/** One page of rows, newest enqueued first. */
export interface JobPage {
  readonly jobs: readonly JobRecord[];
  /** Pass as `cursor` for the next page; null on the last. */
  readonly nextCursor: string | null;
}

/** How an operator resolves a `once` step left `started` by a crash. */
export type StepResolution = { readonly ran: true; readonly output: JsonValue } | { readonly ran: false };

/** Operator capabilities: what the CLI and dashboards read and do. */
export interface JobIntrospection {
  list(query?: JobListQuery): Promise<JobPage>;
  /** The row and its steps, or null. */
  get(id: string): Promise<JobDetail | null>;
  /**
   * Puts a `dead`, `cancelled` or `done` row back to `ready` now with its attempts reset to 0.
   * With `fromStep`, that step and every later one (by position) are deleted first so the run
   * replays the earlier steps and re-executes from there. False (nothing changed) when the row is
   * live or absent, when `fromStep` names no recorded step of its run, or when another live row
   * now holds its `(name, tenantId, idempotencyKey)`: live-only dedupe outranks a retry.
   */
  retry(id: string, options?: { readonly fromStep?: string }): Promise<boolean>;
  /**
   * Cancels a live row: queued rows at once; a `running` row is marked `cancelled` and its
   * holder's next heartbeat answers false. False when absent or already terminal.
   */
  cancel(id: string, reason?: string): Promise<boolean>;
  /** Deletes a row that is not `running`, with its steps. False when absent or running. */
  remove(id: string): Promise<boolean>;
  /**
   * Makes a `delayed` or `suspended` row due now (its `runAt` becomes now); false for any other
   * state or an unknown id. What the run then does is the executor's: a `step.sleep` ends early
   * (its step records `endedEarlyAt`), a `step.waitForEvent` looks for its event again and parks
   * again without it — only `publishEvent` (or the wait's timeout) ends a wait.
   */
  promote(id: string): Promise<boolean>;
  /** Claims skip a paused queue until it is resumed. Idempotent. */
  pause(queue: string): Promise<void>;
  resume(queue: string): Promise<void>;
  /** The paused queues, sorted by name. */
  pausedQueues(): Promise<readonly string[]>;
  /**
   * Resolves a `once` step left `started`: `ran: true` records it completed with `output`;
   * `ran: false` deletes it so the next attempt runs it. False when the step is not `started`.
   */
  resolveStep(jobId: string, step: string, resolution: StepResolution): Promise<boolean>;
  /** Upserts this worker's report; it is listed until `lastSeenAt + ttlMs`. */
  reportWorker(info: WorkerInfo, ttlMs: number): Promise<void>;
  /** Removes a worker's report (on clean stop). */
  removeWorker(id: string): Promise<void>;
  /** Workers seen within their TTL, sorted by id. */
  workers(): Promise<readonly WorkerInfo[]>;
  /** Deletes `done` rows (and their steps) finished before `doneBefore`; dead rows are kept. Answers the count. */
  purge(options: { readonly doneBefore: number }): Promise<number>;
}
