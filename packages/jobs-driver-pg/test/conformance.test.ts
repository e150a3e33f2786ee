import { jobDriverConformance } from '@x/jobs-conformance';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from '../src/migrate.js';
import { postgresJobDriver } from '../src/postgres-job-driver.js';
import { DATABASE_URL } from './database-url.js';
import { dropSchema, scratchSchemaName } from './scratch-schema.js';

const schema = scratchSchemaName('conformance');

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
});
afterAll(async () => {
  await dropSchema(schema);
});

jobDriverConformance({
  name: 'postgres',
  async create({ queues }) {
    const driver = postgresJobDriver(
      { connectionString: DATABASE_URL, max: 4 },
      { schema, migrate: false, queues },
    );
    await driver.ready();
    return driver;
  },
  // A second driver on the same schema: another process's pool and LISTEN session.
  async openPeer() {
    const peer = postgresJobDriver({ connectionString: DATABASE_URL, max: 2 }, { schema, migrate: false });
    await peer.ready();
    return peer;
  },
});
