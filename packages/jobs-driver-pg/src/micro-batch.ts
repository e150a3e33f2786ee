interface Pending<Item, Answer> {
  readonly item: Item;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers the calls made in one event-loop turn into one batch (flushed on `setImmediate`, at
 * most `maxBatch` items each): many jobs finishing together cost one statement and one commit.
 * A failed flush rejects every call in it with the same error.
 */
export class MicroBatch<Item, Answer> {
  readonly #flush: (items: readonly Item[]) => Promise<readonly Answer[]>;
  readonly #maxBatch: number;
  #pending: Pending<Item, Answer>[] = [];
  #scheduled = false;

  constructor(flush: (items: readonly Item[]) => Promise<readonly Answer[]>, maxBatch = 1000) {
    this.#flush = flush;
    this.#maxBatch = maxBatch;
  }

  /** Queues one item; resolves with its answer once its batch ran. */
  push(item: Item): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#drain());
      }
    });
  }

  #drain(): void {
    this.#scheduled = false;
    const pending = this.#pending;
    this.#pending = [];
    for (let start = 0; start < pending.length; start += this.#maxBatch) {
      void this.#run(pending.slice(start, start + this.#maxBatch));
    }
  }

  async #run(batch: readonly Pending<Item, Answer>[]): Promise<void> {
    try {
      const answers = await this.#flush(batch.map((entry) => entry.item));
      for (const [index, entry] of batch.entries()) entry.resolve(answers[index] as Answer);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
