import type { JobDriver } from '@x/jobs-core';
import { Redis } from 'ioredis';
import pg from 'pg';
import { REDIS_URL } from '../endpoints.js';
import { type FleetBackend, fleetDatabaseUrl } from './fleet-backend.js';

const LIVE = ['ready', 'delayed', 'running', 'suspended'] as const;

/** Rows still live (ready, delayed, running, suspended) across every queue. */
export async function liveCount(driver: JobDriver): Promise<number> {
  let live = 0;
  for (const queue of await driver.stats()) for (const state of LIVE) live += queue.counts[state];
  return live;
}

/** Drops a fleet run's Postgres schema or deletes its Redis keys. */
export async function dropSpace(backend: FleetBackend, space: string): Promise<void> {
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
