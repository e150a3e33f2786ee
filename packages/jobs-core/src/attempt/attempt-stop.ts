import type { JobsError } from '../errors/jobs-error.js';
import { LazyAbort } from '../steps/lazy-abort.js';

/**
 * Why an attempt was stopped from outside its body: the one value every later phase reads.
 *
 * | kind | set by | body signal | unwind signal | body race |
 * |---|---|---|---|---|
 * | `drain` | the worker's drain (`X_DRAINING`) | aborted | aborted | runs on (drain budget) |
 * | `timeout` | the job's `timeout` (`X_JOB_TIMEOUT`) | aborted | — | ended now |
 * | `slot-lost` | a fleet slot taken over (`X_JOB_SLOT_LOST`) | aborted | aborted | ended now |
 * | `lease-lost` | a renewal refused (`refused`), or a window with none landing | aborted | aborted | ended now |
 *
 * Once the body ended ({@link AttemptStop.bodyEnded}) a stop is still recorded, but the body's
 * signal no longer aborts: a renewal refused because the settle already landed (its reply still
 * on the way), or a reclaim while the settle is in flight, must not abort a signal the app may
 * still hold. The settle's own answer decides what happened to the row.
 */
export type StopCause =
  | { readonly kind: 'drain'; readonly error: unknown }
  | { readonly kind: 'timeout'; readonly error: JobsError }
  | { readonly kind: 'slot-lost'; readonly error: JobsError }
  | { readonly kind: 'lease-lost'; readonly error: JobsError; readonly refused: boolean };

/** A later cause replaces an earlier one only when it ranks higher: the row's ownership wins. */
const RANK = { timeout: 1, drain: 2, 'slot-lost': 3, 'lease-lost': 4 } as const;

/**
 * The stop state of one attempt: its {@link StopCause}, the body's signal (`ctx.signal`), the
 * unwind's signal, and the hook that lets a stop end the wait for a body that ignores its signal.
 */
export class AttemptStop {
  /** `ctx.signal` and every step write of the body. */
  readonly body = new LazyAbort();
  /** The unwind's signal: a drain or a lost lease aborts it, the body's timeout does not. */
  readonly unwind = new LazyAbort();
  #cause: StopCause | undefined;
  #onEnded: (() => void) | undefined;
  #bodyEnded = false;

  /** Why the attempt was stopped, or undefined while nothing stopped it. */
  get cause(): StopCause | undefined {
    return this.#cause;
  }

  /** Records `cause` (unless a higher-ranked one is recorded) and aborts what it aborts. */
  stop(cause: StopCause): void {
    const current = this.#cause;
    if (current !== undefined && RANK[current.kind] >= RANK[cause.kind]) return;
    this.#cause = cause;
    if (!this.#bodyEnded) this.body.abort(cause.error);
    if (cause.kind !== 'timeout') this.unwind.abort(cause.error);
    if (cause.kind !== 'drain') this.#onEnded?.();
  }

  /** The body (and every step it left in flight) ended: later stops leave `ctx.signal` alone. */
  bodyEnded(): void {
    this.#bodyEnded = true;
  }

  /** True when the cause ends the wait for the body (everything but a drain). */
  get ended(): boolean {
    return this.#cause !== undefined && this.#cause.kind !== 'drain';
  }

  /**
   * Calls `ended` as soon as a stop ends the wait for the body (at once when one already has; once
   * per recorded cause that ends it). The body's own end is awaited beside it: whichever comes
   * first answers the attempt (the caller ignores the later one). No promise is made for the race.
   */
  whenEnded(ended: () => void): void {
    this.#onEnded = ended;
    if (this.ended) ended();
  }
}
