import { randomBytes } from 'node:crypto';
import type { JobDriver } from '@x/jobs-core';
import { postgresJobDriver } from '@x/jobs-driver-pg';
import { pgliteJobDriver } from '@x/jobs-driver-pg/pglite';
import pg from 'pg';

/** The PostgreSQL the tests use: `DATABASE_URL`, else the loopback server CI starts. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A driver on a backend of its own, and how to throw it away. */
export interface TestBackend {
  readonly name: string;
  readonly driver: JobDriver;
  destroy(): Promise<void>;
}

/** The Postgres driver on a fresh schema (migrated on open); `destroy` drops the schema. */
export async function postgresBackend(): Promise<TestBackend> {
  const schema = `x_dashboard_${randomBytes(5).toString('hex')}`;
  const driver = postgresJobDriver({ connectionString: DATABASE_URL, max: 4 }, { schema });
  await driver.ready();
  return {
    name: 'postgres',
    driver,
    async destroy() {
      await driver.close();
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The same driver on an in-memory PGlite (embedded PostgreSQL), through `@x/jobs-driver-pg/pglite`. */
export async function pgliteBackend(): Promise<TestBackend> {
  const driver = await pgliteJobDriver();
  return { name: 'pglite', driver, destroy: () => driver.close() };
}
