/** What a renewal loop reports. Every callback fires only while the loop is running: never after `stop()`. */
export interface RenewalHandlers {
  /** Renews once. true: landed. false: refused (the holder lost the row or slot). Throws: failed. */
  renew(): Promise<boolean>;
  /** One renewal threw; the window may still have room. */
  onFailed(error: unknown): void;
  /** A whole window passed with no renewal landing: reported once. */
  onLost(): void;
  /** A renewal answered false: the loop stops itself. */
  onRefused(): void;
}

/** A running renewal loop. */
export interface RenewalTimer {
  /**
   * Stops the loop. Terminal for a renewal already in flight too: its answer is ignored, so a job
   * that just finished never reports a lost lease.
   */
  stop(): void;
  /**
   * Records a renewal made outside the loop (a `start` that extended the lease): `sentAt` is when
   * it was sent, on `performance.now()`.
   */
  landed(sentAt: number): void;
  /** True once a whole window passed since the last renewal that landed was sent. */
  readonly lapsed: boolean;
}

/**
 * Renews every `intervalMs` for as long as it runs, measuring the window from when the last renewal
 * that landed was **sent** (the backend's lease cannot outlast that), on this process's monotonic
 * clock, so a renewal that hangs is caught like one that throws. At most one renewal is in flight at
 * a time. `leaseFrom` is when the lease being renewed was taken (the claim's send time).
 *
 * Loops of one interval share one timer (see {@link RenewalSchedule}): a worker running thousands of
 * short jobs a second arms no timer per job, and a job that ends before its first renewal costs an
 * insertion and a removal in a set.
 */
export function startRenewalTimer(
  intervalMs: number,
  windowMs: number,
  handlers: RenewalHandlers,
  leaseFrom: number = performance.now(),
): RenewalTimer {
  let schedule = schedules.get(intervalMs);
  if (schedule === undefined) {
    schedule = new RenewalSchedule(intervalMs);
    schedules.set(intervalMs, schedule);
  }
  const loop = new RenewalLoop(schedule, windowMs, handlers, leaseFrom);
  schedule.add(loop);
  return loop;
}

/** One shared schedule per renewal interval. */
const schedules = new Map<number, RenewalSchedule>();

/** One renewal loop: its window, its last landing, and its place in the schedule. */
class RenewalLoop implements RenewalTimer {
  readonly #schedule: RenewalSchedule;
  readonly #windowMs: number;
  readonly #handlers: RenewalHandlers;
  #stopped = false;
  #inFlight = false;
  #lostReported = false;
  #lastLanded: number;
  /** When this loop next renews (monotonic ms). */
  due = 0;
  /** Its neighbours in its schedule's list (see {@link RenewalSchedule}); both unset once it left. */
  prev: RenewalLoop | undefined;
  next: RenewalLoop | undefined;

  constructor(schedule: RenewalSchedule, windowMs: number, handlers: RenewalHandlers, leaseFrom: number) {
    this.#schedule = schedule;
    this.#windowMs = windowMs;
    this.#handlers = handlers;
    this.#lastLanded = leaseFrom;
  }

  get lapsed(): boolean {
    return performance.now() - this.#lastLanded >= this.#windowMs;
  }

  landed(sentAt: number): void {
    if (sentAt > this.#lastLanded) this.#lastLanded = sentAt;
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#schedule.remove(this);
  }

  /** One tick of the loop: report a lapsed window, then renew unless a renewal is in flight. */
  tick(): void {
    this.#checkWindow();
    if (this.#inFlight) return;
    this.#inFlight = true;
    const sentAt = performance.now();
    this.#handlers.renew().then(
      (landed) => {
        this.#inFlight = false;
        if (this.#stopped) return;
        if (landed) {
          this.landed(sentAt);
          return;
        }
        this.stop();
        this.#handlers.onRefused();
      },
      (error: unknown) => {
        this.#inFlight = false;
        if (this.#stopped) return;
        this.#handlers.onFailed(error);
        this.#checkWindow();
      },
    );
  }

  #checkWindow(): void {
    if (!this.#lostReported && this.lapsed) {
      this.#lostReported = true;
      this.#handlers.onLost();
    }
  }
}

/**
 * The loops of one interval, kept in due order: every loop is (re)inserted at the tail with
 * `due = now + interval`, so list order is due order, and one timer armed for the head serves
 * them all. The timer is cleared when the last loop leaves.
 *
 * Why an intrusive list and not a `Set`: this schedule lives as long as the process and gains
 * and loses a loop per job — the churn under which a `Set` keeps finished attempts alive through
 * minor GCs (see `ChurnMap` for why). A removed node forgets both neighbours, so nothing finished
 * stays reachable from here, and the list allocates nothing per job.
 */
class RenewalSchedule {
  readonly #intervalMs: number;
  #head: RenewalLoop | undefined;
  #tail: RenewalLoop | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  add(loop: RenewalLoop): void {
    this.#append(loop, performance.now() + this.#intervalMs);
    if (this.#timer === undefined) this.#arm(this.#intervalMs);
  }

  remove(loop: RenewalLoop): void {
    if (!this.#unlink(loop) || this.#head !== undefined || this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #append(loop: RenewalLoop, due: number): void {
    loop.due = due;
    loop.prev = this.#tail;
    loop.next = undefined;
    if (this.#tail === undefined) this.#head = loop;
    else this.#tail.next = loop;
    this.#tail = loop;
  }

  /** Takes `loop` out of the list; false when it was not in it (only the head has no `prev`). */
  #unlink(loop: RenewalLoop): boolean {
    const { prev, next } = loop;
    if (prev === undefined && this.#head !== loop) return false;
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    loop.prev = undefined;
    loop.next = undefined;
    return true;
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, Math.ceil(delayMs)));
    this.#timer.unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    // Loops re-added below land behind `now + interval`, so the walk stops before reaching them.
    for (let loop = this.#head; loop !== undefined && loop.due <= now; loop = this.#head) {
      this.#unlink(loop);
      this.#append(loop, now + this.#intervalMs);
      loop.tick();
    }
    const head = this.#head;
    if (head !== undefined && this.#timer === undefined) this.#arm(head.due - performance.now());
  }
}
