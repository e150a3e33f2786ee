/**
 * How long after a deferred row's run time its timer fires: the row's run time is on the driver's
 * clock and a timer may fire a millisecond early, so a claim made exactly then could miss it.
 */
export const DUE_TIMER_SLACK_MS = 5;
/** A run time this close before one already pending is served by that firing (one claim for both). */
const COALESCE_MS = 10;
/** At most this many run times are remembered; later ones are left to the idle poll. */
const MAX_PENDING = 256;
/** The longest `setTimeout` delay (a longer one fires at once); a later time is reached in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * One pool's timer for rows it put back with a run time (a rate-limit or fleet-slot deferral, a
 * process-limit hand-back): it calls `fire` when the earliest of them comes due, so the pool claims
 * at once rather than up to `idlePollMaxMs` later, then arms for the next. One `setTimeout` at a
 * time, always for the earliest pending time; {@link close} clears it for good (at stop), after
 * which {@link add} does nothing.
 */
export class DueTimer {
  readonly #fire: () => void;
  /** Pending firing times (`performance.now()` ms), ascending. */
  #times: number[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The time {@link #timer} fires at (Infinity when none is armed). */
  #armedFor = Number.POSITIVE_INFINITY;
  #closed = false;

  constructor(fire: () => void) {
    this.#fire = fire;
  }

  /** Pending firing times (for tests and stats). */
  get pending(): number {
    return this.#times.length;
  }

  /** True while a `setTimeout` is armed. */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** Fires `delayMs` (plus {@link DUE_TIMER_SLACK_MS}) from now, besides any time already pending. */
  add(delayMs: number): void {
    if (this.#closed || !(delayMs >= 0) || !Number.isFinite(delayMs)) return;
    const at = performance.now() + delayMs + DUE_TIMER_SLACK_MS;
    const times = this.#times;
    let index = 0;
    while (index < times.length && (times[index] as number) < at) index += 1;
    const after = times[index];
    // Served, at most COALESCE_MS late, by the firing just after it (never early).
    if (after !== undefined && after - at < COALESCE_MS) return;
    if (times.length >= MAX_PENDING && index >= times.length) return;
    times.splice(index, 0, at);
    if (times.length > MAX_PENDING) times.pop();
    this.#arm();
  }

  /** Clears the timer and forgets every pending time; later {@link add} calls do nothing. */
  close(): void {
    this.#closed = true;
    this.#times = [];
    this.#disarm();
  }

  #arm(): void {
    const next = this.#times[0];
    if (next === undefined || (this.#timer !== undefined && this.#armedFor <= next)) return;
    this.#disarm();
    this.#armedFor = next;
    this.#timer = setTimeout(this.#onTimer, Math.min(MAX_TIMER_MS, Math.max(0, next - performance.now())));
    // The claim loop keeps a running worker alive; this timer alone must not keep a process up.
    this.#timer.unref?.();
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const firstLater = this.#times.findIndex((at) => at > now);
    const due = firstLater === -1 ? this.#times.length : firstLater;
    this.#times.splice(0, due);
    // Nothing due: a step towards a time past the longest timer delay.
    if (due > 0) this.#fire();
    this.#arm();
  };
}
