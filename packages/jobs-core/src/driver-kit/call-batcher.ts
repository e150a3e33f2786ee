interface Waiting<Item, Answer> {
  readonly item: Item;
  readonly settle: { resolve(answer: Answer): void; reject(error: unknown): void };
}

/**
 * For driver authors: gathers calls (acks, most often) into batched flushes, one statement or
 * script call each. The first call of a quiet moment goes out on the next turn (`setImmediate`);
 * while `maxInFlight` flushes run, later calls queue and leave together (at most `maxBatch`) when
 * one returns, so batches grow exactly as fast as the backend slows down. Every call of a failed
 * flush rejects with its error. The Postgres and Redis drivers ack through it.
 */
export class CallBatcher<Item, Answer> {
  readonly #flush: (items: readonly Item[]) => Promise<readonly Answer[]>;
  readonly #maxBatch: number;
  readonly #maxInFlight: number;
  readonly #queue: Waiting<Item, Answer>[] = [];
  #armed = false;
  #running = 0;

  constructor(
    flush: (items: readonly Item[]) => Promise<readonly Answer[]>,
    maxBatch: number,
    maxInFlight: number,
  ) {
    this.#flush = flush;
    this.#maxBatch = maxBatch;
    this.#maxInFlight = maxInFlight;
  }

  /** Adds one call; resolves with its own answer once its flush returned. */
  call(item: Item): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.#queue.push({ item, settle: { resolve, reject } });
      this.#arm();
    });
  }

  #arm(): void {
    if (this.#armed || this.#running >= this.#maxInFlight || this.#queue.length === 0) return;
    this.#armed = true;
    setImmediate(() => {
      this.#armed = false;
      while (this.#queue.length > 0 && this.#running < this.#maxInFlight) {
        this.#running += 1;
        void this.#send(this.#queue.splice(0, this.#maxBatch)).finally(() => {
          this.#running -= 1;
          this.#arm();
        });
      }
    });
  }

  async #send(batch: readonly Waiting<Item, Answer>[]): Promise<void> {
    let answers: readonly Answer[];
    try {
      answers = await this.#flush(batch.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of batch) waiting.settle.reject(error);
      return;
    }
    for (const [i, waiting] of batch.entries()) waiting.settle.resolve(answers[i] as Answer);
  }
}
