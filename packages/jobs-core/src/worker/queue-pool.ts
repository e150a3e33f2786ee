import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import { DueTimer } from './due-timer.js';

/** A claimed job waiting in a pool's buffer, and when its claim was sent (`performance.now()`). */
export interface BufferedClaim {
  readonly job: ClaimedJob;
  readonly at: number;
}

/**
 * One queue's slots in a worker, and the signal its claim loop sleeps on: a wake from the driver,
 * a freed slot, a row it put back coming due ({@link dueIn}), or shutdown all end the wait early.
 */
export class QueuePool {
  readonly queue: string;
  readonly capacity: number;
  /** How many claimed jobs may wait in the local buffer beyond the running ones. */
  readonly prefetch: number;
  #inFlight = 0;
  #buffer: BufferedClaim[] = [];
  #notified = false;
  #staleTaken = 0;
  #waiters: (() => void)[] = [];
  /** The current wait's condition for a freed slot to end it (see {@link changed}). */
  #wakeWhen: (() => boolean) | undefined;
  readonly #due = new DueTimer(() => this.notify());

  constructor(queue: string, capacity: number, prefetch = 0) {
    this.queue = queue;
    this.capacity = capacity;
    this.prefetch = prefetch;
  }

  /** Claimed jobs waiting for a slot. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** Buffers claimed jobs, in claim order, until a slot frees; `at` is when the claim was sent. */
  hold(jobs: readonly ClaimedJob[], at: number = performance.now()): void {
    for (const job of jobs) this.#buffer.push({ job, at });
  }

  /** The next buffered claim, or undefined. */
  next(): BufferedClaim | undefined {
    return this.#buffer.shift();
  }

  /** Removes and answers buffered jobs that waited longer than `maxWaitMs`. */
  takeStale(maxWaitMs: number): ClaimedJob[] {
    const first = this.#buffer[0];
    if (first === undefined || performance.now() - first.at <= maxWaitMs) return [];
    const horizon = performance.now() - maxWaitMs;
    const stale = this.#buffer.filter((entry) => entry.at < horizon).map((entry) => entry.job);
    this.#buffer = this.#buffer.filter((entry) => entry.at >= horizon);
    this.#staleTaken += stale.length;
    return stale;
  }

  /** How many stale jobs {@link takeStale} removed since the last call (the claim loop reads it). */
  takeStaleCount(): number {
    const count = this.#staleTaken;
    this.#staleTaken = 0;
    return count;
  }

  /** Empties the buffer (at shutdown: the caller hands the jobs back). */
  takeAllBuffered(): ClaimedJob[] {
    const jobs = this.#buffer.map((entry) => entry.job);
    this.#buffer = [];
    return jobs;
  }

  /** Jobs of this pool running now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** A job started. */
  take(): void {
    this.#inFlight += 1;
  }

  /**
   * A job's work is over (only its settle may still be in flight; a body a stop left running no
   * longer holds a slot): its slot is free,
   * so the loop may start or claim the next one.
   */
  give(): void {
    this.#inFlight -= 1;
    // A wait that only cares for room (its buffer is still full enough) sleeps on.
    if (this.#wakeWhen !== undefined && !this.#wakeWhen()) return;
    this.notify();
  }

  /** Something changed (work arrived, a slot freed, shutdown): end the current wait. */
  notify(): void {
    this.#notified = true;
    if (this.#waiters.length === 0) return;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /**
   * A row this pool put back with a run time is due in `delayMs`: the pool is notified then (one
   * timer per pool, armed for the earliest pending time), so it claims the row without waiting for
   * its idle poll.
   */
  dueIn(delayMs: number): void {
    this.#due.add(delayMs);
  }

  /** Shutdown: ends the current wait and clears the due timer for good ({@link dueIn} then does nothing). */
  close(): void {
    this.#due.close();
    this.notify();
  }

  /** Forget notifications seen so far (called right before a claim, which sees their effect). */
  clearNotified(): void {
    this.#notified = false;
  }

  /**
   * Waits until notified or `ms` pass; returns at once when notified since the last claim. With
   * `wakeWhen`, a freed slot ({@link give}) ends the wait only once `wakeWhen()` answers true — a
   * claim loop whose buffer is full sleeps through the slots its buffer refills, instead of
   * waking (a promise, a timer) once per job; every other notification ends it as before.
   */
  changed(ms: number, wakeWhen?: () => boolean): Promise<void> {
    if (this.#notified) {
      this.#notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const waiter = () => {
        clearTimeout(timer);
        this.#wakeWhen = undefined;
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((other) => other !== waiter);
        this.#wakeWhen = undefined;
        resolve();
      }, ms);
      this.#wakeWhen = wakeWhen;
      this.#waiters.push(waiter);
    });
  }
}

/**
 * Subscribes the pools to the driver's queue wake: a wake for a queue notifies its pool at once
 * (no poll waits it out). Answers the unsubscribe, or `undefined` for a driver without a wake.
 */
export function wakePools(driver: JobDriver, pools: readonly QueuePool[]): (() => void) | undefined {
  return driver.wake?.subscribe((queue) => {
    for (const pool of pools) if (pool.queue === queue) pool.notify();
  });
}
