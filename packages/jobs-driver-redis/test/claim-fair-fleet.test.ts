import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type FairFleet, fairFleetOrders, forkFairFleet } from '@x/jobs-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisJobDriver } from '../src/index.js';
import { enqueueRequest } from './enqueue-request.js';
import { adminClient, deletePrefix, REDIS_URL, requireRedis, uniquePrefix } from './redis-fixture.js';

const CHILD = fileURLToPath(new URL('./fair-claimer-child.ts', import.meta.url));
const prefix = uniquePrefix('fair-fleet');
const queues = [`fair-turns-${randomUUID()}`, `fair-race-${randomUUID()}`] as const;
const admin = adminClient();
let fleet: FairFleet | undefined;

beforeAll(async () => {
  await requireRedis();
  fleet = await forkFairFleet(CHILD, [prefix, ...queues]);
}, 60_000);
afterAll(async () => {
  await fleet?.close();
  await deletePrefix(prefix, admin);
  admin.disconnect();
});

/**
 * Fair claiming across processes: four processes, each its own driver and connections, claim one
 * row at a time (claim → start → ack) from one fair queue. The service each tenant was given is
 * counted in Redis (the claim-fair script), so the interleaving is the one a single claimer sees.
 */
describe('fair claiming across four claimer processes (Redis)', () => {
  it('serves a newcomer next and alternates tenants, whichever process claims', {
    timeout: 60_000,
  }, async () => {
    const driver = redisJobDriver({ url: REDIS_URL, prefix });
    try {
      const orders = await fairFleetOrders(fleet!, queues, async (queue, tenantId, count) => {
        for (let i = 0; i < count; i += 1) await driver.enqueue(enqueueRequest(queue, { tenantId }));
      });
      expect(orders.turns).toBe('aaaaabababaaa');
      expect(orders.rounds).toEqual(['aabb', 'aabb', 'aaaa']);
    } finally {
      await driver.close();
    }
  });
});
