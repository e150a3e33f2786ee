import type { WakeSource } from '@x/jobs-core/driver';

/** The part of a `pg` `PoolClient` the LISTEN connection uses (typed structurally: pg is not a dependency). */
export interface ListenClient {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  release(destroy?: boolean | Error): void;
}

/** The part of a `pg` `Pool` the LISTEN connection is taken from. */
export interface ListenPool {
  connect(): Promise<ListenClient>;
}

/** Options of {@link pgOutboxWake}. */
export interface PgOutboxWakeOptions {
  /** Where the dedicated LISTEN connection comes from; it is held while anyone subscribes. */
  readonly pool: ListenPool;
  /** The channel staging notifies on (the outbox table's name). */
  readonly channel: string;
  /** How long to wait before reconnecting after the connection fails (ms). (Default: 1000) */
  readonly retryMs?: number;
}

/**
 * A wake over Postgres LISTEN: one connection taken from `pool` while anyone subscribes, listening
 * on the channel staging notifies on commit. A lost connection is replaced after `retryMs`; a
 * relay keeps polling meanwhile, so a missed notification costs at most one poll interval.
 */
export function pgOutboxWake(options: PgOutboxWakeOptions): WakeSource {
  const { pool, channel } = options;
  const retryMs = options.retryMs ?? 1000;
  const listeners = new Set<(channel: string) => void>();
  let client: Held | undefined;
  let connecting = false;
  let retry: NodeJS.Timeout | undefined;

  const wanted = (): boolean => listeners.size > 0;

  const connect = async (): Promise<void> => {
    if (!wanted() || client !== undefined || connecting) return;
    connecting = true;
    let held: Held | undefined;
    try {
      held = hold(await pool.connect());
      const current = held;
      current.client.on('notification', (message) => {
        if (message.channel === channel) for (const listener of listeners) listener(channel);
      });
      current.client.on('error', (error) => {
        if (client === current) client = undefined;
        current.release(error);
        scheduleRetry();
      });
      await current.client.query(`listen "${channel.replaceAll('"', '""')}"`);
    } catch {
      held?.release(true);
      connecting = false;
      scheduleRetry();
      return;
    }
    connecting = false;
    if (!wanted() || held.released) return held.release(true);
    client = held;
    // Rows committed while no connection listened woke nobody: let subscribers pass once.
    for (const listener of listeners) listener(channel);
  };

  const scheduleRetry = (): void => {
    if (!wanted() || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryMs);
    retry.unref();
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      void connect();
      return () => {
        listeners.delete(listener);
        if (wanted()) return;
        clearTimeout(retry);
        retry = undefined;
        client?.release(true);
        client = undefined;
      };
    },
  };
}

interface Held {
  readonly client: ListenClient;
  readonly released: boolean;
  release(reason: true | Error): void;
}

/** Wraps a connection so it is released exactly once, whichever of error, unsubscribe or failure gets there first. */
function hold(client: ListenClient): Held {
  let released = false;
  return {
    client,
    get released() {
      return released;
    },
    release(reason) {
      if (released) return;
      released = true;
      client.release(reason);
    },
  };
}
