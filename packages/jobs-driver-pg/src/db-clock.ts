import { BackendClock } from '@x/jobs-core/driver';
import type { SqlSession } from './sql-session.js';

/** One read of the database's clock: `clock_timestamp()` (the time now, not the transaction's). */
const READ_CLOCK = 'select (extract(epoch from clock_timestamp()) * 1000)::float8 as now_ms';

/**
 * The database's clock read synchronously: what `JobDriver.now()` answers, so the `runAt` core
 * computes (`now + delay`, a backoff, a sleep's wake time) is on the clock every statement
 * compares against (`now()`). Anchored on this process's monotonic clock and measured at start,
 * again every 30 s, and at once when this host's wall clock steps (see `BackendClock`): a ±10 min
 * jump of the worker host's clock moves no due time.
 */
export function dbClock(session: SqlSession): BackendClock {
  return new BackendClock({
    read: async () => Number((await session.query<{ now_ms: number }>(READ_CLOCK))[0]?.now_ms),
  });
}
