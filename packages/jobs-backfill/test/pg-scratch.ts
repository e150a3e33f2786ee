import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

/** The PostgreSQL the tests use: `DATABASE_URL`, else the loopback server CI starts. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A schema name no other test file uses. */
export function scratchSchemaName(label: string): string {
  return `x_backfill_${label}_${randomBytes(4).toString('hex')}`;
}

/** Runs statements on a short-lived admin connection. Fails loudly when PostgreSQL is not there. */
export async function adminQuery<Row = Record<string, unknown>>(
  text: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, [...params])).rows as Row[];
  } finally {
    await client.end();
  }
}

/** Drops a scratch schema and everything in it. */
export function dropSchema(schema: string): Promise<unknown> {
  return adminQuery(`drop schema if exists "${schema}" cascade`);
}

/** The app tables the tests sweep: `items` (the source) and `handled` (one row per handle call). */
export interface ItemsDatabase {
  items: { id: number; touched: number };
  handled: { page: number; first_id: number; pid: number };
}

/** Creates `items` with ids 1..count and an empty `handled` in `schema`. */
export async function createItems(schema: string, count: number): Promise<void> {
  await adminQuery(`create schema if not exists "${schema}"`);
  await adminQuery(`create table "${schema}".items (id int primary key, touched int not null default 0)`);
  await adminQuery(
    `create table "${schema}".handled (page int not null, first_id int not null, pid int not null)`,
  );
  await adminQuery(`insert into "${schema}".items (id) select generate_series(1, $1::int)`, [count]);
}

/** A Kysely over the app tables in `schema`. */
export function itemsDatabase(schema: string): Kysely<ItemsDatabase> {
  return new Kysely<ItemsDatabase>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: DATABASE_URL, max: 2 }) }),
  }).withSchema(schema);
}
