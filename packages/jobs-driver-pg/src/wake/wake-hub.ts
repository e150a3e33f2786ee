import type { WakeSource } from '@x/jobs-core/driver';
import type { WakeTransport } from './wake-transport.js';

/**
 * The driver's `wake`: fans each notified queue out to the subscribers. The driver starts the
 * transport (its one LISTEN session) when it starts, so a subscription is live the moment
 * `subscribe` returns, and stops it on `close()`.
 */
export class WakeHub implements WakeSource {
  readonly #transport: WakeTransport;
  readonly #listeners = new Set<(queue: string) => void>();
  #started: Promise<void> | undefined;
  #stopped = false;

  constructor(transport: WakeTransport) {
    this.#transport = transport;
  }

  /** Starts the transport once; resolves after its first attempt to listen. */
  start(): Promise<void> {
    this.#started ??= this.#transport.start((queue) => this.#emit(queue));
    return this.#started;
  }

  subscribe(listener: (queue: string) => void): () => void {
    if (this.#stopped) return () => {};
    const entry = (queue: string): void => listener(queue);
    this.#listeners.add(entry);
    void this.start();
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Stops the transport; later subscriptions are inert. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#listeners.clear();
    if (this.#started !== undefined) await this.#transport.stop();
  }

  #emit(queue: string): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(queue);
      } catch {
        // A listener's failure is its own: the others still hear the wake.
      }
    }
  }
}
