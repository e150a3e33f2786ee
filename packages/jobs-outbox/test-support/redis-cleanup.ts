import { Redis } from 'ioredis';

/** The Redis the tests use. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Deletes every key of a driver prefix (`{prefix}:*`), so a test leaves nothing behind. */
export async function deleteRedisPrefix(prefix: string, url = REDIS_URL): Promise<void> {
  const admin = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1000);
      if (keys.length > 0) await admin.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await admin.quit();
  }
}
