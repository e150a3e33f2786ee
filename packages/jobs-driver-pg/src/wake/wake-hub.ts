import { parseSettledMessage, type SettledJobs, type WakeSource } from '@x/jobs-core/driver';
import type { WakeTransport } from './wake-transport.js';

/**
 * The driver's `wake`: fans each notified queue out to the subscribers, and each settle
 * notification (SETTLED_CTE) out to the settle subscribers. The driver starts the
 * transport (its one LISTEN session) when it starts, so a subscription is live the moment
 * `subscribe` returns, and stops it on `close()`.
 */
export class WakeHub implements WakeSource {
  readonly #transport: WakeTransport;
  readonly #listeners = new Set<(queue: string) => void>();
  readonly #settleListeners = new Set<(jobs: SettledJobs) => void>();
  #started: Promise<void> | undefined;
  #stopped = false;
  #listeningSettled = false;

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

  /**
   * Adds a settle listener; the first makes the transport LISTEN on the settle channel (a
   * round trip before it is live), so a process that awaits nothing receives no settle traffic.
   */
  subscribeSettled(listener: (jobs: SettledJobs) => void): () => void {
    if (this.#stopped) return () => {};
    const entry = (jobs: SettledJobs): void => listener(jobs);
    this.#settleListeners.add(entry);
    void this.start();
    if (!this.#listeningSettled) {
      this.#listeningSettled = true;
      this.#transport.listenSettled((payload) => this.#emitSettled(parseSettledMessage(payload)));
    }
    return () => {
      this.#settleListeners.delete(entry);
    };
  }

  /** Stops the transport; later subscriptions are inert. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#listeners.clear();
    this.#settleListeners.clear();
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

  #emitSettled(jobs: SettledJobs): void {
    for (const listener of [...this.#settleListeners]) {
      try {
        listener(jobs);
      } catch {
        // A listener's failure is its own: the others still hear the settle.
      }
    }
  }
}
