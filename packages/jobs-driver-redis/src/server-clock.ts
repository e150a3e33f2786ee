import type { RedisClient } from './redis-client.js';

/** How often the offset to the server clock is measured again. */
export const CLOCK_SYNC_INTERVAL_MS = 60_000;

/** TIME round trips per measurement; their bounds are intersected. */
const SAMPLES = 3;

/** One TIME round trip in local epoch ms: sent, the server's ms, received. */
export interface ClockSample {
  readonly sent: number;
  readonly server: number;
  readonly received: number;
}

/**
 * The smallest offset (server − local, ms) consistent with every sample. A sample bounds the
 * offset to [server − received − 1, server − sent + 1] (the server read its clock between send and
 * receive; both clocks floor to the ms); the bounds of all samples are intersected and the value
 * nearest 0 is taken, so clocks that agree within the measurement's precision get offset 0 instead
 * of half a round trip of noise.
 */
export function offsetFromSamples(samples: readonly ClockSample[]): number {
  let low = Number.NEGATIVE_INFINITY;
  let high = Number.POSITIVE_INFINITY;
  for (const { sent, server, received } of samples) {
    low = Math.max(low, server - received - 1);
    high = Math.min(high, server - sent + 1);
  }
  if (samples.length === 0) return 0;
  // Disjoint bounds mean a clock stepped mid-measurement: take the middle of the last sample.
  if (low > high) {
    const last = samples[samples.length - 1]!;
    return Math.round(last.server - (last.sent + last.received) / 2);
  }
  return Math.min(Math.max(0, low), high);
}

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

  /** Measures the offset ({@link offsetFromSamples}). A failure keeps the previous one. */
  async sync(): Promise<void> {
    try {
      const samples: ClockSample[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const sent = Date.now();
        const [seconds, micros] = (await this.#client.time()) as unknown as [
          string | number,
          string | number,
        ];
        const received = Date.now();
        samples.push({ sent, server: Number(seconds) * 1000 + Math.floor(Number(micros) / 1000), received });
      }
      this.#offsetMs = offsetFromSamples(samples);
    } catch {
      // Unreachable right now: the next ready or interval measures again.
    }
  }
}
