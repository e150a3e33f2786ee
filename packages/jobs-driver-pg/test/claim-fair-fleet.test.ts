import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type FairFleet, fairFleetOrders, forkFairFleet } from '@x/jobs-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { postgresJobDriver } from '../src/postgres-job-driver.js';
import { DATABASE_URL } from './database-url.js';
import { enqueueRequest } from './enqueue-request.js';
import { dropSchema, scratchSchemaName } from './scratch-schema.js';

const CHILD = fileURLToPath(new URL('./fair-claimer-child.ts', import.meta.url));
const schema = scratchSchemaName('fair_fleet');
const queues = [`fair-turns-${randomUUID()}`, `fair-race-${randomUUID()}`] as const;
let fleet: FairFleet | undefined;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  fleet = await forkFairFleet(CHILD, [schema, ...queues]);
}, 60_000);
afterAll(async () => {
  await fleet?.close();
  await dropSchema(schema);
});

/**
 * Fair claiming across processes: four processes, each its own driver and pool, claim one row at
 * a time (claim → start → ack) from one fair queue. The service each tenant was given is counted
 * in the database, so the interleaving is the one a single claimer sees.
 */
describe('fair claiming across four claimer processes (Postgres)', () => {
  it('serves a newcomer next and alternates tenants, whichever process claims', {
    timeout: 60_000,
  }, async () => {
    const driver = postgresJobDriver({ connectionString: DATABASE_URL, max: 2 }, { schema, migrate: false });
    try {
      const orders = await fairFleetOrders(fleet!, queues, async (queue, tenantId, count) => {
        for (let i = 0; i < count; i += 1) await driver.enqueue(enqueueRequest({ queue, tenantId }));
      });
      expect(orders.turns).toBe('aaaaabababaaa');
      expect(orders.rounds).toEqual(['aabb', 'aabb', 'aaaa']);
    } finally {
      await driver.close();
    }
  });
});
