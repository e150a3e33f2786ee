/**
 * An abort that creates its `AbortSignal` only when someone asks for it. Most no-op and short jobs
 * never read `ctx.signal`, and an `AbortController` per job is a measurable share of a worker's
 * CPU at tens of thousands of jobs a second; the state (`aborted`, `reason`) is kept either way.
 */
export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** True once {@link abort} was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** What {@link abort} was called with. */
  get reason(): unknown {
    return this.#reason;
  }

  /** The signal, created on first use (already aborted if the abort came first). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts once; later calls are ignored. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
