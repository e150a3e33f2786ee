import type { Execution } from '../attempt/execute-job.js';

/**
 * One attempt a worker holds, from the moment it runs the claimed row until its settle landed (or
 * its crash was reported). Its {@link done} promise is made only when someone waits for it — a
 * shutdown, `runDue`, a newer claim of the same row — so the hot path makes none.
 */
export class HeldRun {
  readonly execution: Execution;
  /** True once only the attempt's settle and report remain (its slot is free). */
  workDone = false;
  #ended = false;
  #waiters: (() => void)[] | undefined;

  constructor(execution: Execution) {
    this.execution = execution;
  }

  /** Resolves once the attempt ended (settled or lost) and the worker counted it. */
  get done(): Promise<void> {
    if (this.#ended) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#waiters ??= [];
      this.#waiters.push(resolve);
    });
  }

  /** When the body ended too: a body a stop left running ends after its attempt. */
  bodyEnded(): Promise<void> {
    return this.done.then(() => this.execution.lingering);
  }

  /** Marks the attempt ended and resolves every {@link done} made so far; later ones answer at once. */
  end(): void {
    this.#ended = true;
    const waiters = this.#waiters;
    this.#waiters = undefined;
    if (waiters !== undefined) for (const resolve of waiters) resolve();
  }
}
