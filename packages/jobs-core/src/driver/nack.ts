import type { AttemptFailure } from './attempt-error.js';
import type { JobErrorRecord, StopReason } from './job-state.js';

/**
 * How a claimed job is handed back. Every kind is fenced on the claim.
 *
 * | kind | row becomes | attempt |
 * |---|---|---|
 * | `retry` | `delayed` (or `ready` when `runAt` ≤ now), `lastError` recorded | counted (if started) |
 * | `release` | `ready`/`delayed` at `runAt` (drain, over a cap) | **uncounted** |
 * | `suspend` | `suspended` until `runAt`, or until an event named `waitFor` is published | **uncounted** |
 * | `dead` | `dead`, with `lastError` and `stopReason` | counted (if started) |
 *
 * **`failure`** (on `retry` and `dead`) is the attempt's full record: the driver appends it, with
 * the time it stored it (`at`, its backend's clock), to the job's attempt errors in the same
 * atomic step as the nack (or one the nack's fence makes idempotent), keeps the newest
 * `ATTEMPT_ERROR_LIMITS.perJob` of them with the row, and deletes them with the row (remove, purge,
 * expiry). An operator `retry` keeps them. A nack without `failure` records none.
 *
 * "Uncounted" means the row's `attempts` go back to what they were before this claim: a claim
 * that called `start` hands its attempt back, one that never started changes nothing.
 *
 * **A suspend with `waitFor` closes the gap between the run's look and its suspend**: when an
 * unexpired event named `waitFor` was published after this attempt started (`startedAt`, one
 * published in the same clock tick counted too), the row is suspended due now
 * (`runAt` = now when that is earlier) and its queue is woken, so the next claim replays the run
 * and its `find` sees the event. The driver does it in the suspend's
 * own atomic step; no caller needs to look again. A claim that never started has no such gap.
 */
export type NackOptions =
  | {
      readonly kind: 'retry';
      readonly runAt: number;
      readonly error: JobErrorRecord;
      readonly failure?: AttemptFailure;
    }
  | { readonly kind: 'release'; readonly runAt?: number }
  | { readonly kind: 'suspend'; readonly runAt: number; readonly waitFor?: string }
  | {
      readonly kind: 'dead';
      readonly error: JobErrorRecord;
      readonly stopReason: StopReason;
      readonly failure?: AttemptFailure;
    };

/** A progress report from `run({ progress })`, persisted on the row. */
export interface JobProgress {
  readonly current: number;
  readonly total: number | null;
}
