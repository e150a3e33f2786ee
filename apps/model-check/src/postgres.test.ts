import { randomBytes } from 'node:crypto';
import { jobDriverModelCheck } from '@x/jobs-conformance';
import { migrate, postgresJobDriver } from '@x/jobs-driver-pg';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { MODEL_CHECK_SEED, memoryModel } from './memory-model.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `x_jobs_model_${randomBytes(4).toString('hex')}`;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
});
afterAll(() => admin(`drop schema if exists "${schema}" cascade`));

jobDriverModelCheck({
  name: 'postgres',
  create: async () => {
    const driver = postgresJobDriver({ connectionString: DATABASE_URL, max: 2 }, { schema, migrate: false });
    await driver.ready();
    return driver;
  },
  model: memoryModel,
  seed: MODEL_CHECK_SEED,
  numRuns: 120,
  timeoutMs: 900_000,
  maxOperations: 30,
});
