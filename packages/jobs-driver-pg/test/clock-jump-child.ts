/**
 * The Postgres child of the clock-jump test (`node --import <clock-shift> clock-jump-child.ts
 * <schema>`): opens the driver on the scratch schema, then runs the shared scenario.
 */
import pg from 'pg';
import { runClockJumpChild } from '../../jobs-core/test/clock-jump/clock-jump-child.js';
import { postgresJobDriver } from '../src/index.js';
import { DATABASE_URL } from './database-url.js';

const schema = process.argv[2] as string;
const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await runClockJumpChild({
  driver: postgresJobDriver({ connectionString: DATABASE_URL }, { schema, migrate: false }),
  readBackendClock: async () => {
    const { rows } = await admin.query<{ ms: number }>(
      'select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms',
    );
    return Number(rows[0]?.ms);
  },
  close: () => admin.end(),
});
