// The four-line certification file of the conformance README, on a key prefix of its own
// (the suite's purge is global within a prefix), deleted afterwards.
import { afterAll, beforeAll } from 'vitest';
import { adminClient, deletePrefix, REDIS_URL, requireRedis, uniquePrefix } from './redis-fixture.js';

const prefix = uniquePrefix('four-lines');
const admin = adminClient();
beforeAll(requireRedis);
afterAll(async () => {
  await deletePrefix(prefix, admin);
  admin.disconnect();
});

// The four lines:
import { jobDriverConformance } from '@x/jobs-conformance';
import { redisJobDriver } from '@x/jobs-driver-redis';

jobDriverConformance({
  name: 'redis (the four-line file)',
  create: () => redisJobDriver({ url: REDIS_URL, prefix }),
});
