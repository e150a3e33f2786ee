import { redisJobDriver } from '@x/jobs-driver-redis';
import { Redis } from 'ioredis';
import { BENCH_REDIS_DBS, redisOptions, redisUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchSystem } from '../system.js';
import { xSystem } from './x-system.js';

/** Our Redis driver on db 3, default options (one Lua script per operation, pub/sub wake). */
export function xRedisSystem(): BenchSystem {
  let admin: Redis | null = null;
  return xSystem({
    name: 'x-redis',
    backend: 'redis',
    versions: { '@x/jobs-driver-redis': installedVersion('@x/jobs-driver-redis') },
    async open(queues) {
      return redisJobDriver({ url: redisUrl(BENCH_REDIS_DBS.x), ...(queues ? { queues } : {}) });
    },
    async reset(driver) {
      admin ??= new Redis(redisOptions(BENCH_REDIS_DBS.x));
      // The db index is ours alone: emptying it is the most complete reset.
      await admin.flushdb();
      return driver;
    },
    async close() {
      admin?.disconnect();
      admin = null;
    },
  });
}
