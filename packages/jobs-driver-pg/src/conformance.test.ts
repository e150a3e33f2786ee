import { jobDriverConformance } from '@x/jobs-conformance';
import { afterAll, beforeAll } from 'vitest';
import { DATABASE_URL } from '../test/database-url.js';
import { dropSchema, scratchSchemaName } from '../test/scratch-schema.js';
import { migrate } from './migrate.js';
import { postgresJobDriver } from './postgres-job-driver.js';

const schema = scratchSchemaName('conformance');

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
});
afterAll(async () => {
  await dropSchema(schema);
});

jobDriverConformance({
  name: 'postgres',
  async create() {
    const driver = postgresJobDriver({ connectionString: DATABASE_URL, max: 4 }, { schema, migrate: false });
    await driver.ready();
    return driver;
  },
});
