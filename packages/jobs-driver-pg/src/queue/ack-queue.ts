/** One ack waiting to land: the fenced row, its result, and who waits for the answer. */
export interface PendingAck {
  readonly id: string;
  readonly token: string;
  /** JSON text, or null for none. */
  readonly result: string | null;
  readonly resolve: (landed: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/** Sends one batch of acks and answers, per ack in order, whether it landed. */
export type AckSender = (acks: readonly PendingAck[]) => Promise<readonly boolean[]>;

/**
 * The acks of one driver waiting to land. A claim takes every pending ack into its own statement
 * (`take`), so a busy worker's acks cost no statement of their own; acks no claim picks up go out
 * by themselves, gathered per tick as in a `CallBatcher`: at most `maxBatch` per statement and
 * `maxInFlight` such statements at once, the rest waiting for the next free one (or claim).
 */
export class AckQueue {
  readonly #send: AckSender;
  readonly #maxBatch: number;
  readonly #maxInFlight: number;
  #pending: PendingAck[] = [];
  #armed = false;
  #inFlight = 0;

  constructor(send: AckSender, maxBatch: number, maxInFlight: number) {
    this.#send = send;
    this.#maxBatch = maxBatch;
    this.#maxInFlight = maxInFlight;
  }

  /** Queues one ack; resolves with whether it landed once a statement carried it. */
  ack(id: string, token: string, result: string | null): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#pending.push({ id, token, result, resolve, reject });
      this.#arm();
    });
  }

  /** Takes up to `max` pending acks, oldest first, for a statement that will settle them. */
  take(max: number): PendingAck[] {
    return this.#pending.length <= max ? this.#pending.splice(0) : this.#pending.splice(0, max);
  }

  #arm(): void {
    if (this.#armed || this.#inFlight >= this.#maxInFlight || this.#pending.length === 0) return;
    this.#armed = true;
    setImmediate(() => {
      this.#armed = false;
      while (this.#pending.length > 0 && this.#inFlight < this.#maxInFlight) {
        this.#inFlight += 1;
        void this.#flush(this.take(this.#maxBatch)).finally(() => {
          this.#inFlight -= 1;
          this.#arm();
        });
      }
    });
  }

  async #flush(acks: readonly PendingAck[]): Promise<void> {
    let answers: readonly boolean[];
    try {
      answers = await this.#send(acks);
    } catch (error) {
      rejectAcks(acks, error);
      return;
    }
    resolveAcks(acks, answers);
  }
}

/** Answers each ack of a batch from its statement's answers (same order). */
export function resolveAcks(acks: readonly PendingAck[], landed: readonly boolean[]): void {
  for (let i = 0; i < acks.length; i += 1) (acks[i] as PendingAck).resolve(landed[i] === true);
}

/** Fails every ack of a batch whose statement failed. */
export function rejectAcks(acks: readonly PendingAck[], error: unknown): void {
  for (const ack of acks) ack.reject(error);
}
