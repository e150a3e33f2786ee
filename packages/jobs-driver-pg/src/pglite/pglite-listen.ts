import type { PGlite } from '@electric-sql/pglite';
import { quoteIdent } from '../schema-name.js';
import type { WakeTransport } from '../wake/wake-transport.js';

/**
 * The wake on PGlite: its in-process `listen`. Notifications never leave the process (PGlite is
 * one process's database), which is all a single-process app needs.
 */
export class PgliteListen implements WakeTransport {
  readonly #pglite: PGlite;
  readonly #channel: string;
  readonly #settledChannel: string;
  #unlisten: (() => Promise<void>) | undefined;
  #unlistenSettled: Promise<() => Promise<void>> | undefined;

  constructor(pglite: PGlite, channel: string, settledChannel: string) {
    this.#pglite = pglite;
    this.#channel = channel;
    this.#settledChannel = settledChannel;
  }

  async start(emit: (queue: string) => void): Promise<void> {
    this.#unlisten = await this.#pglite.listen(quoteIdent(this.#channel), (payload) => emit(payload));
  }

  listenSettled(emit: (payload: string) => void): void {
    this.#unlistenSettled ??= this.#pglite.listen(quoteIdent(this.#settledChannel), (payload) =>
      emit(payload),
    );
    this.#unlistenSettled.catch(() => {});
  }

  async stop(): Promise<void> {
    await this.#unlisten?.().catch(() => {});
    this.#unlisten = undefined;
    const settled = this.#unlistenSettled;
    this.#unlistenSettled = undefined;
    await settled?.then((unlisten) => unlisten()).catch(() => {});
  }
}
