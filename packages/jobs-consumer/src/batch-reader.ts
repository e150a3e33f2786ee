/** One read of {@link BatchReader.next}: up to `size` items, and whether the source ended. */
export interface ReadBatch<Item> {
  readonly items: readonly Item[];
  /** True when the source is exhausted: nothing follows these items. */
  readonly done: boolean;
}

/**
 * Cuts an async iterator into batches: a batch closes when it holds `size` items, when the source
 * ends, or `flushAfterMs` after its first item arrived (so a slow stream never strands items). A
 * `next()` still pending when a batch closes early is kept and answers into the next batch, so no
 * item is lost or reordered. An abort of `signal` rejects the read with the signal's reason.
 */
export class BatchReader<Item> {
  readonly #iterator: AsyncIterator<Item>;
  #pending: Promise<IteratorResult<Item>> | undefined;
  #done = false;

  constructor(iterator: AsyncIterator<Item>) {
    this.#iterator = iterator;
  }

  /** Reads the next batch; answers `{ items: [], done: true }` once the source is exhausted. */
  async next(size: number, flushAfterMs: number, signal: AbortSignal): Promise<ReadBatch<Item>> {
    const items: Item[] = [];
    let flushAt: number | undefined;
    while (!this.#done && items.length < size) {
      signal.throwIfAborted();
      const pending = this.#pull();
      const waitMs = flushAt === undefined ? undefined : Math.max(0, flushAt - Date.now());
      const outcome = await raceRead(pending, waitMs, signal);
      if (outcome === 'flush') break;
      this.#pending = undefined;
      if (outcome.done === true) {
        this.#done = true;
        break;
      }
      items.push(outcome.value);
      flushAt ??= Date.now() + flushAfterMs;
    }
    return { items, done: this.#done };
  }

  /**
   * Closes the source without waiting: `return()` on an iterator still answering a `next()` would
   * queue behind it, and the source is expected to end on the signal anyway.
   */
  close(): void {
    if (this.#done) return;
    this.#done = true;
    void Promise.resolve(this.#iterator.return?.()).catch(() => undefined);
  }

  #pull(): Promise<IteratorResult<Item>> {
    this.#pending ??= this.#iterator.next();
    return this.#pending;
  }
}

/** The first of: the read, the flush deadline (`'flush'`), the abort (a rejection with its reason). */
function raceRead<Item>(
  read: Promise<IteratorResult<Item>>,
  waitMs: number | undefined,
  signal: AbortSignal,
): Promise<IteratorResult<Item> | 'flush'> {
  return new Promise((resolve, reject) => {
    const timer = waitMs === undefined ? undefined : setTimeout(() => finish(() => resolve('flush')), waitMs);
    const onAbort = () => finish(() => reject(signal.reason));
    const finish = (settle: () => void) => {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    read.then(
      (result) => finish(() => resolve(result)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
