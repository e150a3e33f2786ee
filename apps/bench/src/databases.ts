import pg from 'pg';
import { DATABASE_URL } from './endpoints.js';

/** Creates a bench database when it is missing (two processes racing to create it is fine). */
export async function ensureDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((error: unknown) => {
        // 42P04 duplicate_database: another process created it first.
        if ((error as { code?: string }).code !== '42P04') throw error;
      });
    }
  } finally {
    await client.end();
  }
}
