/** The durable state of one scheduled task. */
export interface ScheduleState {
  readonly task: string;
  /**
   * Epoch ms up to which the task's occurrences are settled, or null before any scheduler saw it.
   * Usually the last occurrence dispatched; the scheduler also sets it to "now" on its first round
   * (past occurrences are not fired) and when a catch-up walk passes over missed occurrences it
   * drops. Occurrences after it are still to fire. Not "last fired" on its own.
   */
  readonly watermark: number | null;
  readonly paused: boolean;
  /** Epoch ms of the last change. */
  readonly updatedAt: number;
}

/** Scheduler watermarks and pause flags, shared by every scheduler node. */
export interface ScheduleStore {
  get(task: string): Promise<ScheduleState | null>;
  /** Every task's state, sorted by task name. */
  list(): Promise<readonly ScheduleState[]>;
  /**
   * Moves the watermark from `expected` to `next` atomically. False when the stored watermark is
   * not `expected` (another node moved it). A task with no row has watermark null; a successful
   * first set creates the row unpaused.
   */
  advance(task: string, expected: number | null, next: number): Promise<boolean>;
  /** Sets the pause flag, creating the row (watermark null) when absent. */
  setPaused(task: string, paused: boolean): Promise<void>;
}
