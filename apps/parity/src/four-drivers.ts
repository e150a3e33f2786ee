import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { type JobDriver, silentLogger } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { migrate, postgresJobDriver } from '@x/jobs-driver-pg';
import { pgliteJobDriver } from '@x/jobs-driver-pg/pglite';
import { redisJobDriver } from '@x/jobs-driver-redis';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The PostgreSQL and Redis the property runs against (loopback services CI starts). */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One driver under comparison, with its name. */
export interface NamedDriver {
  readonly name: 'memory' | 'pglite' | 'postgres' | 'redis';
  readonly driver: JobDriver;
}

/** The four drivers on fresh storage (a scratch schema, a fresh prefix, an in-memory PGlite). */
export interface FourDrivers {
  readonly drivers: readonly NamedDriver[];
  close(): Promise<void>;
}

/**
 * Opens memory, PGlite, Postgres and Redis drivers on storage of their own. Fails loudly when
 * Postgres or Redis is not reachable (the property needs all four).
 */
export async function openFourDrivers(): Promise<FourDrivers> {
  const tag = randomBytes(4).toString('hex');
  const schema = `x_jobs_parity_${tag}`;
  await migrate({ connectionString: DATABASE_URL }, { schema });
  const pglite = await PGlite.create();
  const drivers: NamedDriver[] = [
    { name: 'memory', driver: memoryJobDriver() },
    { name: 'pglite', driver: await pgliteJobDriver({ pglite, schema: 'x_jobs_parity' }) },
    {
      name: 'postgres',
      driver: postgresJobDriver({ connectionString: DATABASE_URL, max: 2 }, { schema, migrate: false }),
    },
    {
      name: 'redis',
      driver: redisJobDriver({ url: REDIS_URL, prefix: `parity-${tag}`, logger: silentLogger }),
    },
  ];
  return {
    drivers,
    async close() {
      await Promise.all(drivers.map(({ driver }) => driver.close()));
      await pglite.close();
      await deletePrefix(`parity-${tag}`);
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** Deletes every key of a Redis prefix (`{prefix}:*`). */
async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
