import type { RedisClient } from '../redis-client.js';

/**
 * Makes sure the marker key exists, answering whether it had to be written. The marker is one
 * plain string key inside the prefix's hash tag, written by the first driver that connects and
 * never deleted by the driver: a server that later answers without it lost the driver's data
 * (restarted without persistence, flushed, or evicted). One `SET NX` round trip.
 *
 * Value: `<driver epoch>|<server run_id>|<written at, epoch ms>`, for an operator reading it.
 */
export async function ensureMarker(
  client: RedisClient,
  key: string,
  epoch: string,
  runId: string | null,
): Promise<'present' | 'written'> {
  const reply = await client.set(key, `${epoch}|${runId ?? ''}|${Date.now()}`, 'NX');
  return reply === 'OK' ? 'written' : 'present';
}
