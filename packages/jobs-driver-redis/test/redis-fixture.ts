import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { type RedisJobDriver, redisJobDriver } from '../src/index.js';
import type { RedisJobDriverOptions } from '../src/redis-job-driver-options.js';

/** The Redis the tests use. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A prefix no other test (or helper on this machine) uses. */
export function uniquePrefix(label = 't'): string {
  return `xjobs-test-${label}-${randomUUID().slice(0, 8)}`;
}

/** A plain client for assertions and cleanup (offline queue on: tests may use it before it connects). */
export function adminClient(url = REDIS_URL): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  client.on('error', () => {});
  return client;
}

/** Connects to `url` once, PINGs and disconnects; rejects when it does not answer PONG. */
export async function pingOnce(url: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    const reply = await client.ping();
    if (reply !== 'PONG') throw new Error(`PING answered ${reply}`);
  } finally {
    client.disconnect();
  }
}

/** Fails loudly, naming REDIS_URL, when the tests' Redis is not answering. */
export async function requireRedis(): Promise<void> {
  try {
    await pingOnce(REDIS_URL);
  } catch (error) {
    throw new Error(
      `The Redis driver tests need Redis at REDIS_URL=${REDIS_URL} (start it with tooling/scripts/services.sh).`,
      { cause: error },
    );
  }
}

/** Deletes every key of `prefix` (SCAN + DEL), so a test leaves nothing behind. */
export async function deletePrefix(prefix: string, client: Redis): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await client.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** Opens drivers on fresh prefixes and, on `cleanup()`, closes them and deletes their keys. */
export class DriverPool {
  readonly #admin = adminClient();
  readonly #opened: { readonly driver: RedisJobDriver; readonly prefix: string }[] = [];

  /** A driver on a fresh prefix (or `prefix`, to share one key space between two drivers). */
  open(options: RedisJobDriverOptions = {}): RedisJobDriver {
    const driver = redisJobDriver({
      ...(options.client === undefined ? { url: REDIS_URL } : {}),
      prefix: uniquePrefix(),
      ...options,
    });
    this.#opened.push({ driver, prefix: driver.prefix });
    return driver;
  }

  /** The client the pool cleans up with, for raw assertions. */
  get admin(): Redis {
    return this.#admin;
  }

  async cleanup(): Promise<void> {
    const opened = this.#opened.splice(0);
    await Promise.all(opened.map(({ driver }) => driver.close()));
    for (const prefix of new Set(opened.map(({ prefix }) => prefix))) await deletePrefix(prefix, this.#admin);
  }

  async end(): Promise<void> {
    await this.cleanup();
    this.#admin.disconnect();
  }
}
