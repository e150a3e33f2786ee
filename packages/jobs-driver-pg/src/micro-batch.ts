interface Pending<Item, Answer> {
  readonly item: Item;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers calls into batches (at most `maxBatch` items each): many jobs finishing together cost one
 * statement and one commit. The first calls of a quiet moment go out on the next turn
 * (`setImmediate`); while `maxInFlight` flushes are already running, later calls wait and go out
 * together when one returns, so batches grow exactly as fast as commits slow down. A failed flush
 * rejects every call in it with the same error.
 */
export class MicroBatch<Item, Answer> {
  readonly #flush: (items: readonly Item[]) => Promise<readonly Answer[]>;
  readonly #maxBatch: number;
  readonly #maxInFlight: number;
  #pending: Pending<Item, Answer>[] = [];
  #scheduled = false;
  #inFlight = 0;

  constructor(
    flush: (items: readonly Item[]) => Promise<readonly Answer[]>,
    maxBatch = 1000,
    maxInFlight = 4,
  ) {
    this.#flush = flush;
    this.#maxBatch = maxBatch;
    this.#maxInFlight = maxInFlight;
  }

  /** Queues one item; resolves with its answer once its batch ran. */
  push(item: Item): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.#maxInFlight || this.#pending.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => this.#drain());
  }

  #drain(): void {
    this.#scheduled = false;
    while (this.#pending.length > 0 && this.#inFlight < this.#maxInFlight) {
      const batch = this.#pending.splice(0, this.#maxBatch);
      this.#inFlight += 1;
      void this.#run(batch).finally(() => {
        this.#inFlight -= 1;
        this.#schedule();
      });
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
