import { serveFairFleetMessages } from '@x/jobs-conformance';
import { redisJobDriver } from '../src/index.js';
import { REDIS_URL } from './redis-fixture.js';

/**
 * One claimer process of the fair fleet test: `fair-claimer-child.ts <prefix> <queue>…`. Opens its
 * own driver (its own connections) on `<prefix>` with each `<queue>` fair by tenant and serves the
 * fleet's messages (see `serveFairFleetMessages`).
 */
const [prefix = '', ...queues] = process.argv.slice(2);
const driver = redisJobDriver({
  url: REDIS_URL,
  prefix,
  queues: Object.fromEntries(queues.map((queue) => [queue, { fairness: 'tenant' }])),
});
serveFairFleetMessages(driver);
