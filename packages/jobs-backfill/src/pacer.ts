import type { PaceTimer } from './pace-timer.js';

/**
 * Spaces page starts `1000 / rate` ms apart within one attempt. The first page an attempt runs
 * starts at once (replayed pages are not re-paid), a page that took longer than the interval
 * starts the next at once, and the wait unwinds when the step's signal aborts.
 */
export class Pacer {
  readonly #intervalMs: number;
  readonly #timer: PaceTimer;
  #lastStart: number | undefined;

  constructor(rate: number, timer: PaceTimer) {
    this.#intervalMs = 1000 / rate;
    this.#timer = timer;
  }

  /** Waits until the next page may start, then marks it started. */
  async next(signal: AbortSignal): Promise<void> {
    if (this.#lastStart !== undefined) {
      const wait = this.#lastStart + this.#intervalMs - this.#timer.now();
      if (wait > 0) await this.#timer.sleep(wait, signal);
    }
    this.#lastStart = this.#timer.now();
  }
}
