import type { JobsError } from '@x/jobs-core';
import { classifyRedisError } from './classify-error.js';
import { redisConfigurationError } from './configuration-errors.js';
import type { RedisClient } from './redis-client.js';
import type { ServerChecks } from './server-checks/server-checks.js';

/** How long the first command waits for the very first connection of a new client. */
const FIRST_CONNECT_WAIT_MS = 5000;

/**
 * The driver's guard around one client (refusing calls after `close()` is core's `refuseAfterClose`,
 * which wraps the whole driver): lets the first calls of a brand-new client wait for its first connection
 * (bounded; a refused connection ends the wait at once), and classifies every failure through
 * {@link classifyRedisError}. After the first connection nothing ever waits for a reconnect.
 */
export class RedisConnection {
  readonly client: RedisClient;
  /** True when the driver created the client (and so quits it on close). */
  readonly owned: boolean;
  /** The server checks every operation passes (set by the driver). */
  gate: Pick<ServerChecks, 'pass'> | undefined;
  #closed = false;
  #firstConnect: Promise<void> | null;
  /**
   * The configuration error the latest connection attempt failed with (a refused password, a db
   * index out of range, an unknown host), cleared once a connection is ready: while it is set, a
   * call fails with it rather than with a bare "unreachable".
   */
  #misconfigured: JobsError | undefined;
  readonly #setting: string;
  readonly #onError: (error: unknown) => void;
  readonly #onReady: () => void;

  /** `setting` is what a configuration error tells the operator to fix (`url`, `REDIS_URL`, `client`). */
  constructor(client: RedisClient, owned: boolean, setting = 'url') {
    this.client = client;
    this.owned = owned;
    this.#setting = setting;
    this.#onError = (error) => {
      this.#misconfigured = redisConfigurationError(error, setting) ?? this.#misconfigured;
    };
    this.#onReady = () => {
      this.#misconfigured = undefined;
    };
    client.on('error', this.#onError);
    client.on('ready', this.#onReady);
    this.#firstConnect = isConnecting(client) ? this.#waitFirstConnect() : null;
    // A lazy client connects on its first command, which no offline queue would refuse: start now.
    if (client.status === 'wait') client.connect().catch(() => {});
  }

  /** True once `close()` ran. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs one driver operation under the guard; `operation` names it in errors. */
  async run<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    if (this.#firstConnect !== null) await this.#firstConnect;
    if (this.#misconfigured !== undefined && this.client.status !== 'ready') throw this.#misconfigured;
    const checking = this.gate?.pass();
    if (checking !== undefined) await checking;
    try {
      return await fn();
    } catch (error) {
      throw this.#configurationErrorOf(error) ?? classifyRedisError(error, operation);
    }
  }

  /** A failure that is the server refusing our settings (a reply, or the connection it broke), if it is one. */
  #configurationErrorOf(error: unknown): JobsError | undefined {
    const direct = redisConfigurationError(error, this.#setting);
    if (direct !== undefined) return this.#misconfigured ?? direct;
    return this.client.status === 'ready' ? undefined : this.#misconfigured;
  }

  /** Marks the connection closed and quits an owned client. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.client.off('error', this.#onError);
    this.client.off('ready', this.#onReady);
    if (!this.owned) return;
    if (this.client.status === 'ready') {
      await this.client.quit().catch(() => this.client.disconnect());
    } else {
      this.client.disconnect();
    }
  }

  #waitFirstConnect(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.client.off('ready', done);
        this.client.off('error', done);
        this.client.off('end', done);
        this.#firstConnect = null;
        resolve();
      };
      const timer = setTimeout(done, FIRST_CONNECT_WAIT_MS);
      timer.unref();
      this.client.once('ready', done);
      this.client.once('error', done);
      this.client.once('end', done);
    });
  }
}

function isConnecting(client: RedisClient): boolean {
  return client.status === 'wait' || client.status === 'connecting' || client.status === 'connect';
}
