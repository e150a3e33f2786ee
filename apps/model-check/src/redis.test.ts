import { randomUUID } from 'node:crypto';
import { jobDriverModelCheck } from '@x/jobs-conformance';
import { type RedisJobDriver, redisJobDriver } from '@x/jobs-driver-redis';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { MODEL_CHECK_SEED, memoryModel } from './memory-model.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
afterAll(() => admin.disconnect());

async function deletePrefix(prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await admin.del(...keys);
  } while (cursor !== '0');
}

jobDriverModelCheck({
  name: 'redis',
  create: () => redisJobDriver({ url: REDIS_URL, prefix: `xjobs-model-${randomUUID().slice(0, 8)}` }),
  destroy: async (subject) => {
    const driver = subject as RedisJobDriver;
    await driver.close();
    await deletePrefix(driver.prefix);
  },
  model: memoryModel,
  seed: MODEL_CHECK_SEED,
  numRuns: 120,
  maxOperations: 30,
});
