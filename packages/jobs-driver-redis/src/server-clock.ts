import type { RedisClient } from './redis-client.js';

/** How often the offset to the server clock is measured again. */
export const CLOCK_SYNC_INTERVAL_MS = 60_000;

/**
 * The driver's `now()`: the local clock plus the measured offset to the Redis server's `TIME`, so
 * the `runAt` values core computes line up with the server time every script compares against.
 * The offset is measured at each connection's ready and every {@link CLOCK_SYNC_INTERVAL_MS}; until
 * the first measurement it is 0.
 */
export class ServerClock {
  #offsetMs = 0;
  readonly #client: RedisClient;

  constructor(client: RedisClient) {
    this.#client = client;
  }

  /** Epoch ms on the server's clock (estimated locally, no round trip). */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** The current estimate of server time minus local time, in ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Measures the offset once (half the round trip is assumed on each leg). Failures keep the old one. */
  async sync(): Promise<void> {
    try {
      const sent = Date.now();
      const [seconds, micros] = (await this.#client.time()) as unknown as [string | number, string | number];
      const received = Date.now();
      const server = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      this.#offsetMs = Math.round(server - (sent + received) / 2);
    } catch {
      // Unreachable right now: the next ready or interval measures again.
    }
  }
}
