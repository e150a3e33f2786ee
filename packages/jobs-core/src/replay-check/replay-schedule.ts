import type { StepRecord } from '../driver/step-store.js';

/** A replayed step call waiting for its answer. */
interface HeldCall {
  readonly record: StepRecord;
  readonly answer: () => void;
}

/** One turn of the event loop: every promise continuation the last answer released has run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * When the check answers the step calls it replays. Parallel steps (`Promise.all` over steps) are
 * all in flight at once; the executor recorded them at their call positions but they finished in
 * some order, and the body's later calls (a chain `await step.run(a); await step.run(b)` per
 * branch) took their positions in that order. So the schedule answers the calls in flight one at
 * a time, the earliest-completed record first (`completedAt`, then position), and lets the body
 * run to its next calls between two answers — a later call then takes the position the executor
 * gave it.
 *
 * A call that stops the replay (parked, failed, past the history) is never answered; its siblings
 * still are. The schedule is `quiet` once nothing is left to answer and some call stopped: the
 * body is parked where the run is.
 */
export class ReplaySchedule {
  readonly #held: HeldCall[] = [];
  #stopped = false;
  #wake: (() => void) | undefined;
  #answered = 0;

  /** How many calls were answered from the history. */
  get answered(): number {
    return this.#answered;
  }

  /** Holds a replayed call until its turn. */
  hold(record: StepRecord, answer: () => void): void {
    this.#held.push({ record, answer });
    this.#poke();
  }

  /** Notes a call that stops the replay. */
  stop(): void {
    this.#stopped = true;
    this.#poke();
  }

  /** Answers held calls in completion order until the body is parked; `ended()` ends it early. */
  async run(ended: () => boolean): Promise<'quiet'> {
    for (;;) {
      await turn();
      if (ended()) return 'quiet';
      const next = this.#earliest();
      if (next !== undefined) {
        this.#answered += 1;
        next.answer();
        continue;
      }
      if (this.#stopped) return 'quiet';
      // The body runs code outside steps (or has returned): wait for its next call.
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #earliest(): HeldCall | undefined {
    let best = -1;
    for (let i = 0; i < this.#held.length; i += 1) {
      const call = this.#held[i] as HeldCall;
      const current = best === -1 ? undefined : (this.#held[best] as HeldCall);
      if (current === undefined || before(call.record, current.record)) best = i;
    }
    return best === -1 ? undefined : this.#held.splice(best, 1)[0];
  }

  #poke(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

function before(a: StepRecord, b: StepRecord): boolean {
  const at = a.completedAt ?? Number.POSITIVE_INFINITY;
  const bt = b.completedAt ?? Number.POSITIVE_INFINITY;
  return at === bt ? a.position < b.position : at < bt;
}
