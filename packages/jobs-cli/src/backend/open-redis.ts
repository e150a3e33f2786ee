import type { Backend } from './backend.js';
import type { BackendChoice } from './backend-choice.js';
import { importOptional } from './import-optional.js';

/** Opens `@x/jobs-driver-redis` on a URL (and key prefix). Redis keeps no schema: there is nothing to migrate. */
export async function openRedisBackend(choice: Extract<BackendChoice, { kind: 'redis' }>): Promise<Backend> {
  const redis = await importOptional(() => import('@x/jobs-driver-redis'), {
    code: 'X_CLI_DRIVER_MISSING',
    packages: ['@x/jobs-driver-redis', 'ioredis'],
    purpose: '--driver redis',
  });
  const driver = redis.redisJobDriver({
    url: choice.url,
    ...(choice.prefix === undefined ? {} : { prefix: choice.prefix }),
  });
  return { choice, driver, close: () => driver.close() };
}
