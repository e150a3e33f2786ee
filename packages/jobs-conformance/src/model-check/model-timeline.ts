import type { ConformanceSubject } from '../driver-harness.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The real-time gap the timeline keeps between two calls, so no two calls share a millisecond. */
const CALL_GAP_MS = 2;

/**
 * Keeps the two sides' clocks in step. When both drivers run on virtual clocks, time passes only
 * when a sequence lets it ({@link pass}). When either runs in real time (a database's clock), the
 * virtual one follows real time: before every call it jumps by the real time elapsed, and calls
 * are spaced a couple of milliseconds apart, so a row stamped "now" by one call is later than
 * every row stamped by an earlier call on both sides — the order rows tie-break on agrees.
 */
export class ModelTimeline {
  readonly #subjects: readonly ConformanceSubject[];
  readonly #realTime: boolean;
  #synced = Date.now();
  #lastCall = 0;

  constructor(subjects: readonly ConformanceSubject[]) {
    this.#subjects = subjects;
    this.#realTime = subjects.some((subject) => subject.clock === undefined);
  }

  /** Call before every driver call of the sequence (and before reading the final state). */
  async beforeCall(): Promise<void> {
    if (!this.#realTime) return;
    while (Date.now() < this.#lastCall + CALL_GAP_MS) await sleep(1);
    const now = Date.now();
    const elapsed = now - this.#synced;
    this.#synced = now;
    if (elapsed > 0) for (const subject of this.#subjects) await subject.clock?.advance(elapsed);
    this.#lastCall = now;
  }

  /** Lets `ms` pass on both sides. */
  async pass(ms: number): Promise<void> {
    if (this.#realTime) {
      await sleep(ms);
      return;
    }
    for (const subject of this.#subjects) await subject.clock?.advance(ms);
  }
}
