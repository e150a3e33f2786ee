import type { JobDriver } from '@x/jobs-core';
import type { QueueOptionsMap } from '@x/jobs-core/driver';
import { DATABASE_URL, REDIS_URL } from '../endpoints.js';

/** The backends the fleet SIGKILL test runs on. */
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
