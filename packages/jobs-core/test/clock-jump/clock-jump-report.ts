/** One run of the clock-jump job's body, as the child saw it (backend clock, epoch ms). */
export interface BodyCall {
  /** The backend's clock read as the body began. */
  readonly startedAt: number;
  /** The row's `runAt` then: the due time that made this run claimable. */
  readonly runAt: number;
}

/** What a clock-jump child reports once its job finished (or it gave up waiting). */
export interface ClockJumpReport {
  /** The child's `Date.now()` right after its clock was shifted. */
  readonly shiftedWallNow: number;
  /** The delayed enqueue: the backend's clock read before it, and the row's `runAt` after it. */
  readonly delayed: { readonly before: number; readonly runAt: number };
  /** Each body call in order: 1 throws (retry), 2 sleeps, 3 wakes and returns. */
  readonly calls: readonly BodyCall[];
  /** Whether the job reached `done` before the child gave up. */
  readonly done: boolean;
}

/** Messages between the parent test and a clock-jump child. */
export type ChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'report'; readonly report: ClockJumpReport }
  | { readonly type: 'failed'; readonly message: string };

export type ParentMessage = { readonly type: 'shift'; readonly ms: number };

/** The delay, the retry backoff and the sleep of the scenario. */
export const DUE_IN_MS = 500;
