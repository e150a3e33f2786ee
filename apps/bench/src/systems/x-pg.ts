import { postgresJobDriver } from '@x/jobs-driver-pg';
import pg from 'pg';
import { ensureDatabase } from '../databases.js';
import { BENCH_DATABASES, databaseUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchSystem } from '../system.js';
import { xSystem } from './x-system.js';

/**
 * Our Postgres driver on `bench_x`, default options (migrations on open, LISTEN wake); with
 * `keepNoDone` it is the `x-pg-done0` row: `retention: { done: 0 }` (acks delete the row, nothing
 * kept: graphile-worker's model), in its own schema.
 */
export function xPgSystem(keepNoDone = false): BenchSystem {
  const SCHEMA = keepNoDone ? 'x_jobs_done0' : 'x_jobs';
  const url = databaseUrl(BENCH_DATABASES.x);
  let admin: pg.Pool | null = null;
  return xSystem({
    name: keepNoDone ? 'x-pg-done0' : 'x-pg',
    backend: 'pg',
    database: BENCH_DATABASES.x,
    hotTables: [`${SCHEMA}.jobs`],
    versions: {
      '@x/jobs-driver-pg': installedVersion('@x/jobs-driver-pg'),
      kysely: installedVersion('kysely'),
    },
    async open(queues) {
      await ensureDatabase(BENCH_DATABASES.x);
      const driver = postgresJobDriver(
        { connectionString: url },
        { schema: SCHEMA, ...(keepNoDone ? { retention: { done: 0 } } : {}), ...(queues ? { queues } : {}) },
      );
      await driver.ready();
      return driver;
    },
    async reset(driver) {
      admin ??= new pg.Pool({ connectionString: url, max: 1 });
      // Every table of the driver's schema but its migration ledger: the database is ours alone.
      const { rows } = await admin.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT LIKE '%migration%'",
        [SCHEMA],
      );
      const tables = rows.map((row) => `${SCHEMA}.${pg.escapeIdentifier(row.tablename)}`);
      if (tables.length > 0) await admin.query(`TRUNCATE ${tables.join(', ')} CASCADE`);
      return driver;
    },
    async close() {
      await admin?.end();
      admin = null;
    },
  });
}
