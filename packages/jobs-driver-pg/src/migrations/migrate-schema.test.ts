import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import { migrate } from '../migrate.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import { LATEST_MIGRATION_VERSION } from './migration-list.js';

/** Every released version, 1 to the latest. */
const EVERY_VERSION = Array.from({ length: LATEST_MIGRATION_VERSION }, (_, i) => i + 1);

const schemas: string[] = [];
const fresh = (label: string): string => {
  const schema = scratchSchemaName(label);
  schemas.push(schema);
  return schema;
};

afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

describe('migrate()', () => {
  it('applies every migration once, then is a no-op', async () => {
    const schema = fresh('migrate');
    const first = await migrate({ connectionString: DATABASE_URL }, { schema });
    expect(first).toEqual({ schema, applied: EVERY_VERSION, version: LATEST_MIGRATION_VERSION });
    const again = await migrate({ connectionString: DATABASE_URL }, { schema });
    expect(again).toEqual({ schema, applied: [], version: LATEST_MIGRATION_VERSION });
    const tables = await adminQuery<{ table_name: string }>(
      'select table_name from information_schema.tables where table_schema = $1 order by table_name',
      [schema],
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      'backfills',
      'events',
      'fair_queues',
      'fair_served',
      'job_history',
      'jobs',
      'leases',
      'migrations',
      'paused_queues',
      'rate_limits',
      'schedules',
      'steps',
      'workers',
    ]);
  });

  it('is safe when several processes migrate one schema at once (advisory lock)', async () => {
    const schema = fresh('race');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => migrate({ connectionString: DATABASE_URL }, { schema })),
    );
    expect(results.flatMap((result) => result.applied)).toEqual(EVERY_VERSION);
    const recorded = await adminQuery<{ n: number }>(`select count(*)::int as n from "${schema}".migrations`);
    expect(recorded[0]?.n).toBe(LATEST_MIGRATION_VERSION);
  });

  it('refuses a database whose applied migration was edited', async () => {
    const schema = fresh('edited');
    await migrate({ connectionString: DATABASE_URL }, { schema });
    await adminQuery(`update "${schema}".migrations set checksum = 'edited' where version = 1`);
    await expect(migrate({ connectionString: DATABASE_URL }, { schema })).rejects.toMatchObject({
      code: 'X_PG_MIGRATION_CHECKSUM_MISMATCH',
    });
    const driver = postgresJobDriver({ connectionString: DATABASE_URL }, { schema });
    await expect(driver.ready()).rejects.toMatchObject({ code: 'X_PG_MIGRATION_CHECKSUM_MISMATCH' });
    await driver.close();
  });

  it('without migrate: false a driver migrates on start; with it, a missing schema is X_PG_SCHEMA_MISSING', async () => {
    const schema = fresh('lazy');
    const unmigrated = postgresJobDriver({ connectionString: DATABASE_URL }, { schema, migrate: false });
    await expect(unmigrated.stats()).rejects.toMatchObject({ code: 'X_PG_SCHEMA_MISSING' });
    await unmigrated.close();
    const driver = postgresJobDriver({ connectionString: DATABASE_URL }, { schema });
    expect(await driver.stats()).toEqual([]);
    await driver.close();
  });

  it('refuses an unreachable server with X_DRIVER_UNAVAILABLE', async () => {
    await expect(
      migrate({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres' }, { schema: 'x_jobs_nowhere' }),
    ).rejects.toMatchObject({ code: 'X_DRIVER_UNAVAILABLE' });
  });
});
