import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DATABASE_URL } from './database-url.js';

/** A schema name no other test file uses: `x_jobs_test_<label>_<random>`. */
export function scratchSchemaName(label: string): string {
  return `x_jobs_test_${label}_${randomBytes(4).toString('hex')}`;
}

/** Runs one statement on a short-lived admin connection (outside any driver's pool). */
export async function adminQuery<Row = Record<string, unknown>>(
  text: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL, application_name: 'x-jobs-test-admin' });
  await client.connect();
  try {
    const result = await client.query(text, [...params]);
    return result.rows as Row[];
  } finally {
    await client.end();
  }
}

/** Drops a scratch schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  await adminQuery(`drop schema if exists "${schema.replaceAll('"', '""')}" cascade`);
}
