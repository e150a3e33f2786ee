/**
 * A first-come, first-served turn on one session: `take()` resolves when every earlier taker has
 * called its release, with the release for this turn. A release called twice frees the turn once.
 */
export class SessionTurns {
  #last: Promise<void> = Promise.resolve();

  take(): Promise<() => void> {
    const previous = this.#last;
    let free!: () => void;
    const mine = new Promise<void>((resolve) => {
      free = resolve;
    });
    this.#last = previous.then(() => mine);
    return previous.then(() => free);
  }
}
