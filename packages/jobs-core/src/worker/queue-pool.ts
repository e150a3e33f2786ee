/**
 * One queue's slots in a worker, and the signal its claim loop sleeps on: a wake from the driver,
 * a freed slot, or shutdown all end the wait early.
 */
export class QueuePool {
  readonly queue: string;
  readonly capacity: number;
  #inFlight = 0;
  #notified = false;
  #waiters: (() => void)[] = [];

  constructor(queue: string, capacity: number) {
    this.queue = queue;
    this.capacity = capacity;
  }

  /** Jobs of this pool running now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** A job started. */
  take(): void {
    this.#inFlight += 1;
  }

  /** A job settled: its slot is free, so the loop may claim again. */
  give(): void {
    this.#inFlight -= 1;
    this.notify();
  }

  /** Something changed (work arrived, a slot freed, shutdown): end the current wait. */
  notify(): void {
    this.#notified = true;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Forget notifications seen so far (called right before a claim, which sees their effect). */
  clearNotified(): void {
    this.#notified = false;
  }

  /** Waits until notified or `ms` pass; returns at once when notified since the last claim. */
  changed(ms: number): Promise<void> {
    if (this.#notified) {
      this.#notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((other) => other !== waiter);
        resolve();
      }, ms);
      this.#waiters.push(waiter);
    });
  }
}
