import { jobDriverConformance } from '@x/jobs-conformance';
import { afterAll, beforeAll } from 'vitest';
import { type RedisJobDriver, redisJobDriver } from '../src/index.js';
import { adminClient, deletePrefix, REDIS_URL, requireRedis, uniquePrefix } from './redis-fixture.js';

const admin = adminClient();
beforeAll(requireRedis);
afterAll(() => admin.disconnect());

jobDriverConformance({
  name: 'redis',
  // A fresh prefix per case: leases, schedules, workers and pauses are per key space, not per queue.
  create: ({ queues }) => redisJobDriver({ url: REDIS_URL, prefix: uniquePrefix('conf'), queues }),
  destroy: async (subject) => {
    const driver = subject as RedisJobDriver;
    await driver.close();
    await deletePrefix(driver.prefix, admin);
  },
  // A second driver on the same key space: another process's connections and subscriber.
  openPeer: (subject) => redisJobDriver({ url: REDIS_URL, prefix: (subject as RedisJobDriver).prefix }),
});
