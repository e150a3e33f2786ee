import type { JobDriver } from '@x/jobs-core';
import type { QueueOptionsMap } from '@x/jobs-core/driver';
import { Redis } from 'ioredis';
import pg from 'pg';
import { DATABASE_URL, REDIS_URL } from '../endpoints.js';

/** The backends the fleet tests (SIGKILL storm, rate limit) run on. */
export type FleetBackend = 'pg' | 'redis';

/** The Postgres database the test's own schemas live in. */
export function fleetDatabaseUrl(): string {
  const url = new URL(DATABASE_URL);
  url.pathname = '/test';
  return url.toString();
}

/**
 * Opens the driver of one fleet test run: `space` is its own Postgres schema or Redis key prefix,
 * so concurrent runs (and other tests) never share rows; `queues` are its per-queue settings.
 */
export async function openFleetDriver(
  backend: FleetBackend,
  space: string,
  queues: QueueOptionsMap = {},
): Promise<JobDriver> {
  // Each process loads only its backend's driver: a replacement worker starts sooner.
  if (backend === 'redis') {
    const { redisJobDriver } = await import('@x/jobs-driver-redis');
    return redisJobDriver({ url: REDIS_URL, prefix: space, queues });
  }
  const { postgresJobDriver } = await import('@x/jobs-driver-pg');
  const driver = postgresJobDriver({ connectionString: fleetDatabaseUrl() }, { schema: space, queues });
  await driver.ready();
  return driver;
}

/** Drops what one fleet test run wrote: its Postgres schema, or every key of its Redis prefix. */
export async function dropFleetSpace(backend: FleetBackend, space: string): Promise<void> {
  if (backend === 'pg') {
    const admin = new pg.Client({ connectionString: fleetDatabaseUrl() });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(space)} CASCADE`);
    await admin.end();
    return;
  }
  const admin = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `*${space}*`, 'COUNT', 1000);
    if (keys.length > 0) await admin.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  admin.disconnect();
}
