import type { JobState } from './job-state.js';

/** One queue's numbers. */
export interface QueueStats {
  readonly queue: string;
  /** Row count per state; every state present, zero when empty. */
  readonly counts: Readonly<Record<JobState, number>>;
  /** Age in ms of the oldest row due now (`ready`, or `delayed`/`suspended` past its runAt), or null. */
  readonly oldestReadyAgeMs: number | null;
  readonly paused: boolean;
}
