import { epochNow } from './clock.js';
import type { BenchPayload } from './system.js';

/**
 * Counts handler invocations per job id (ids `0 … size-1`): how many ran, how many distinct,
 * when the first and the last started. `record` is the `onJob` callback of a worker.
 */
export class JobTally {
  /** Handler invocations so far. */
  count = 0;
  /** Distinct ids run so far. */
  distinct = 0;
  /** Epoch ms of the first invocation (NaN before it). */
  firstAt = Number.NaN;
  /** Epoch ms of the latest invocation (NaN before it). */
  lastAt = Number.NaN;
  private readonly runs: Uint16Array;
  private waiters: { target: number; resolve: () => void }[] = [];
  /** The smallest target of the waiters (Infinity with none): `add` looks at them only once reached. */
  private nextTarget = Number.POSITIVE_INFINITY;

  constructor(readonly size: number) {
    this.runs = new Uint16Array(size);
  }

  /** Records one invocation; usable directly as `onJob`. */
  readonly record = (payload: BenchPayload): void => {
    this.add(payload.i, epochNow());
  };

  /** Records one invocation of `id` at `at` (epoch ms); ids outside the range count but stay non-distinct. */
  add(id: number, at: number): void {
    if (this.count === 0 || at < this.firstAt) this.firstAt = at;
    if (this.count === 0 || at > this.lastAt) this.lastAt = at;
    this.count += 1;
    if (id >= 0 && id < this.size) {
      const before = this.runs[id] as number;
      if (before === 0) this.distinct += 1;
      if (before < 0xffff) this.runs[id] = before + 1;
    }
    // Checked per invocation, so it must not allocate: the tally runs inside every handler measured.
    if (this.count >= this.nextTarget) {
      const ready = this.waiters.filter((waiter) => this.count >= waiter.target);
      this.setWaiters(this.waiters.filter((waiter) => this.count < waiter.target));
      for (const waiter of ready) waiter.resolve();
    }
  }

  /** Invocations beyond the first of their id. */
  get duplicates(): number {
    return this.count - this.distinct;
  }

  /** Ids that never ran. */
  get missing(): number {
    return this.size - this.distinct;
  }

  /** Ids that ran more than once. */
  get idsRunTwice(): number {
    let n = 0;
    for (const runs of this.runs) if (runs > 1) n += 1;
    return n;
  }

  /** Resolves once `target` invocations were recorded; rejects after `timeoutMs`. */
  reached(target: number, timeoutMs: number): Promise<void> {
    if (this.count >= target) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.setWaiters(this.waiters.filter((waiter) => waiter.resolve !== done));
        reject(new Error(`timed out after ${timeoutMs} ms: ${this.count} of ${target} jobs ran`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.setWaiters([...this.waiters, { target, resolve: done }]);
    });
  }

  private setWaiters(waiters: { target: number; resolve: () => void }[]): void {
    this.waiters = waiters;
    this.nextTarget = Math.min(Number.POSITIVE_INFINITY, ...waiters.map((waiter) => waiter.target));
  }
}
