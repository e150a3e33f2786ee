import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

/** The database every Postgres test of this package runs against (trust auth on loopback by default). */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One test file's database: a Kysely over a pg Pool, and a schema of its own dropped at the end. */
export interface PgTestDatabase {
  // biome-ignore lint/suspicious/noExplicitAny: tests use raw SQL against tables they create.
  readonly db: Kysely<any>;
  readonly pool: pg.Pool;
  /** The file's own schema. */
  readonly schema: string;
  /** A fresh table name in the schema. */
  table(prefix?: string): string;
  /** Drops the schema and closes the pool. */
  close(): Promise<void>;
}

/** Opens the pool and creates a fresh schema; fails loudly when Postgres is not reachable. */
export async function openPgTestDatabase(): Promise<PgTestDatabase> {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 6 });
  const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }) });
  const schema = `outbox_test_${randomUUID().slice(0, 8)}`;
  await pool.query(`create schema "${schema}"`);
  let tables = 0;
  return {
    db,
    pool,
    schema,
    table: (prefix = 't') => {
      tables += 1;
      return `${prefix}_${tables}`;
    },
    async close() {
      await pool.query(`drop schema if exists "${schema}" cascade`);
      await db.destroy();
    },
  };
}
