import { serveFairFleetMessages } from '@x/jobs-conformance';
import { postgresJobDriver } from '../src/postgres-job-driver.js';
import { DATABASE_URL } from './database-url.js';

/**
 * One claimer process of the fair fleet test: `fair-claimer-child.ts <schema> <queue>…`. Opens its
 * own driver (its own pool) with each `<queue>` fair by tenant and serves the fleet's messages
 * (see `serveFairFleetMessages`).
 */
const [schema = '', ...queues] = process.argv.slice(2);
const driver = postgresJobDriver(
  { connectionString: DATABASE_URL, max: 2 },
  {
    schema,
    migrate: false,
    queues: Object.fromEntries(queues.map((queue) => [queue, { fairness: 'tenant' }])),
  },
);
await driver.ready();
serveFairFleetMessages(driver);
