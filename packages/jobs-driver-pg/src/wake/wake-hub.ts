import type { WakeSource } from '@x/jobs-core';
import type { WakeTransport } from './wake-transport.js';

/**
 * The driver's `wake`: fans each notified queue out to the subscribers. The transport (one LISTEN
 * session per driver) starts with the first subscriber, so a process that only enqueues never
 * holds one, and stops on `close()`.
 */
export class WakeHub implements WakeSource {
  readonly #transport: WakeTransport;
  readonly #listeners = new Set<(queue: string) => void>();
  #started = false;
  #stopped = false;

  constructor(transport: WakeTransport) {
    this.#transport = transport;
  }

  subscribe(listener: (queue: string) => void): () => void {
    if (this.#stopped) return () => {};
    const entry = (queue: string): void => listener(queue);
    this.#listeners.add(entry);
    if (!this.#started) {
      this.#started = true;
      this.#transport.start((queue) => {
        for (const each of [...this.#listeners]) {
          try {
            each(queue);
          } catch {
            // A listener's failure is its own: the others still hear the wake.
          }
        }
      });
    }
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Stops the transport; later subscriptions are inert. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#listeners.clear();
    if (this.#started) await this.#transport.stop();
  }
}
