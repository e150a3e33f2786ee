import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';
import { clockJumpCases } from '../../jobs-core/test/clock-jump/clock-jump-suite.js';
import { DATABASE_URL } from '../test/database-url.js';
import { dropSchema, scratchSchemaName } from '../test/scratch-schema.js';
import { migrate } from './migrate.js';

const schema = scratchSchemaName('clock');

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
});

afterAll(async () => {
  await dropSchema(schema);
});

describe('Postgres: due times are on the database clock, whatever the worker host clock does', () => {
  clockJumpCases(() => ({
    script: fileURLToPath(new URL('../test/clock-jump-child.ts', import.meta.url)),
    args: [schema],
  }));
});
