import { BackendClock } from '@x/jobs-core/driver';
import type { RedisClient } from './redis-client.js';

/**
 * The driver's `now()`: the Redis server's `TIME` read without a round trip, so the `runAt` values
 * core computes line up with the server time every script compares against. Anchored on this
 * process's monotonic clock and measured at each connection's ready, every 30 s, and at once when
 * this host's wall clock steps (see `BackendClock`): a ±10 min jump of the worker host's clock
 * moves no due time. Until the first measurement it answers the local clock.
 */
export function serverClock(client: RedisClient): BackendClock {
  return new BackendClock({
    read: async () => {
      const [seconds, micros] = (await client.time()) as unknown as [string | number, string | number];
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    },
  });
}
