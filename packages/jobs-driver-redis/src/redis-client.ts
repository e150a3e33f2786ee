import { type Cluster, Redis } from 'ioredis';

/** What the driver talks to: a single Redis or a Redis Cluster client from ioredis. */
export type RedisClient = Redis | Cluster;

/** The longest pause between two reconnect attempts of a client the driver creates. */
const RECONNECT_MAX_DELAY_MS = 2000;

/**
 * Reconnect delay after `attempt` failed attempts: 100 ms doubling to {@link RECONNECT_MAX_DELAY_MS},
 * forever (never `null`, so a restarted server is picked up without restarting the process).
 */
function reconnectDelay(attempt: number): number {
  return Math.min(50 * 2 ** Math.min(Math.max(attempt, 1), 16), RECONNECT_MAX_DELAY_MS);
}

/**
 * Opens the client the driver owns for `url`: no offline queue and no per-request retries, so a
 * command while disconnected is refused at once instead of waiting for a reconnect; reconnects
 * forever with capped backoff; auto-pipelining so concurrent settles share a round trip.
 */
export function createOwnedClient(url: string, commandTimeoutMs: number): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelay,
    enableAutoPipelining: true,
    commandTimeout: commandTimeoutMs,
    connectionName: 'x-jobs',
  });
  // Connection errors surface on the commands as X_DRIVER_UNAVAILABLE; the event itself is noise.
  client.on('error', () => {});
  return client;
}
