import type { JobState } from './job-state.js';

/** One queue's numbers. */
export interface QueueStats {
  readonly queue: string;
  /** Row count per state; every state present, zero when empty. */
  readonly counts: Readonly<Record<JobState, number>>;
  /**
   * How long the longest-waiting due row has been due: now − the earliest `runAt` among `ready`
   * rows and `delayed`/`suspended` rows past their `runAt`. Null when none is due.
   */
  readonly oldestReadyAgeMs: number | null;
  readonly paused: boolean;
}
