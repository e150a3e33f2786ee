import { jobDriverConformance } from '@x/jobs-conformance';
import { afterAll, beforeAll } from 'vitest';
import { adminClient, deletePrefix, REDIS_URL, requireRedis, uniquePrefix } from '../test/redis-fixture.js';
import { type RedisJobDriver, redisJobDriver } from './index.js';

const admin = adminClient();
beforeAll(requireRedis);
afterAll(() => admin.disconnect());

jobDriverConformance({
  name: 'redis',
  // A fresh prefix per case: leases, schedules, workers and pauses are per key space, not per queue.
  create: () => redisJobDriver({ url: REDIS_URL, prefix: uniquePrefix('conf') }),
  destroy: async (subject) => {
    const driver = subject as RedisJobDriver;
    await driver.close();
    await deletePrefix(driver.prefix, admin);
  },
});
