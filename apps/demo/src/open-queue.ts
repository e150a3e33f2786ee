import type { PGlite } from '@electric-sql/pglite';
import type { JobDriver } from '@x/jobs-core';
import type { Kysely } from 'kysely';

/** Where the queue lives, and a line saying so. */
export interface Queue {
  readonly driver: JobDriver;
  readonly where: string;
}

/**
 * The queue's driver: PostgreSQL when `DATABASE_URL` is set, Redis when `REDIS_URL` is, else the
 * demo's own embedded database (one PGlite instance for the app's tables, its outbox and the queue;
 * the queue runs its statements through the app's Kysely instance, so they wait for the app's
 * transactions instead of landing inside them). Each driver is imported only when chosen.
 */
export async function openQueue(
  env: Readonly<Record<string, string | undefined>>,
  // biome-ignore lint/suspicious/noExplicitAny: the app's Kysely, whatever its tables
  app: { readonly pglite: PGlite; readonly db: Kysely<any> },
): Promise<Queue> {
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') {
    const { postgresJobDriver } = await import('@x/jobs-driver-pg');
    const schema = env.X_DEMO_SCHEMA ?? 'x_jobs_demo';
    const driver = postgresJobDriver({ connectionString: env.DATABASE_URL }, { schema });
    await driver.ready();
    return { driver, where: `PostgreSQL (schema ${schema})` };
  }
  if (env.REDIS_URL !== undefined && env.REDIS_URL !== '') {
    const { redisJobDriver } = await import('@x/jobs-driver-redis');
    const prefix = env.X_DEMO_REDIS_PREFIX ?? 'x-jobs-demo';
    return { driver: redisJobDriver({ url: env.REDIS_URL, prefix }), where: `Redis (prefix ${prefix})` };
  }
  const { pgliteJobDriver } = await import('@x/jobs-driver-pg/pglite');
  const driver = await pgliteJobDriver({ pglite: app.pglite, db: app.db, schema: 'x_jobs' });
  return { driver, where: 'the embedded PGlite' };
}
