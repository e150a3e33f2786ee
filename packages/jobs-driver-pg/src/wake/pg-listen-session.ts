import pg from 'pg';
import { quoteIdent } from '../schema-name.js';
import type { WakeTransport } from './wake-transport.js';

/** Reconnect delays of the LISTEN session: doubling from `minDelayMs` up to `maxDelayMs`, with jitter. */
export interface ListenBackoff {
  /** (Default: 100) */
  readonly minDelayMs?: number;
  /** (Default: 5000) */
  readonly maxDelayMs?: number;
}

/**
 * One dedicated pg `Client` holding `LISTEN <channel>`. When the session ends (server restart,
 * `pg_terminate_backend`, network cut) it reconnects with backoff and listens again; wakes sent
 * while it was down are lost, which the worker's slow poll covers. Once asked (`listenSettled`),
 * the same session also LISTENs on the settle channel.
 */
export class PgListenSession implements WakeTransport {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #settledChannel: string;
  #settled: ((payload: string) => void) | undefined;
  readonly #minDelayMs: number;
  readonly #maxDelayMs: number;
  #client: pg.Client | undefined;
  #stopped = false;
  #wakeSleep: (() => void) | undefined;
  #loop: Promise<void> | undefined;

  constructor(config: pg.ClientConfig, channel: string, settledChannel: string, backoff: ListenBackoff = {}) {
    this.#config = { keepAlive: true, connectionTimeoutMillis: 10_000, ...config };
    this.#channel = channel;
    this.#settledChannel = settledChannel;
    this.#minDelayMs = backoff.minDelayMs ?? 100;
    this.#maxDelayMs = backoff.maxDelayMs ?? 5000;
  }

  start(emit: (queue: string) => void): Promise<void> {
    return new Promise((resolve) => {
      this.#loop ??= this.#run(emit, resolve);
    });
  }

  listenSettled(emit: (payload: string) => void): void {
    const first = this.#settled === undefined;
    this.#settled = emit;
    // A live session listens now; one still connecting (or reconnecting) listens in #run.
    if (first) this.#client?.query(`LISTEN ${quoteIdent(this.#settledChannel)}`).catch(() => {});
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeSleep?.();
    await this.#client?.end().catch(() => {});
    await this.#loop;
  }

  async #run(emit: (queue: string) => void, firstAttempt: () => void): Promise<void> {
    let failures = 0;
    if (this.#stopped) firstAttempt();
    while (!this.#stopped) {
      const client = new pg.Client(this.#config);
      const ended = new Promise<void>((resolve) => client.once('end', resolve));
      client.on('error', () => {
        // The session is gone; 'end' follows and the loop reconnects.
      });
      client.on('notification', (message) => {
        if (message.channel === this.#channel) emit(message.payload ?? '');
        else if (message.channel === this.#settledChannel) this.#settled?.(message.payload ?? '');
      });
      try {
        this.#client = client;
        await client.connect();
        await client.query(`LISTEN ${quoteIdent(this.#channel)}`);
        if (this.#settled !== undefined) await client.query(`LISTEN ${quoteIdent(this.#settledChannel)}`);
        failures = 0;
        firstAttempt();
        if (this.#stopped) await client.end();
        await ended;
      } catch {
        firstAttempt();
        await client.end().catch(() => {});
        failures += 1;
      } finally {
        this.#client = undefined;
      }
      if (this.#stopped) return;
      await this.#sleep(this.#delay(failures));
    }
  }

  #delay(failures: number): number {
    const base = Math.min(this.#maxDelayMs, this.#minDelayMs * 2 ** Math.max(0, failures - 1));
    return base / 2 + Math.random() * (base / 2);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wakeSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
