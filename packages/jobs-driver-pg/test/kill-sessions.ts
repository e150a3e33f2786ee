import pg from 'pg';
import { DATABASE_URL } from './database-url.js';
import { adminQuery } from './scratch-schema.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Terminates the sessions named `applicationName` (all of them, or only the LISTEN one) with
 * pg_terminate_backend from an admin session; answers their pids.
 */
export async function terminateSessions(
  applicationName: string,
  only: 'all' | 'listen' | 'pool' = 'all',
): Promise<number[]> {
  const filter =
    only === 'listen'
      ? `and query ilike 'listen %'`
      : only === 'pool'
        ? `and query not ilike 'listen %'`
        : '';
  const rows = await adminQuery<{ pid: number }>(
    `select pid, pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 ${filter}`,
    [applicationName],
  );
  return rows.map((row) => row.pid);
}

/**
 * Kills the sessions named `applicationName` while they are verifiably mid-statement: an admin
 * transaction locks `table` against writes, the writes the driver sends pile up waiting on it,
 * and only once one is seen waiting are the sessions terminated (then the lock is let go).
 * Answers the pids killed.
 */
export async function killMidStatement(applicationName: string, table: string): Promise<number[]> {
  const admin = new pg.Client({ connectionString: DATABASE_URL, application_name: 'x-jobs-test-blocker' });
  await admin.connect();
  try {
    await admin.query('begin');
    await admin.query(`lock table ${table} in share row exclusive mode`);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const waiting = await admin.query(
        `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
        [applicationName],
      );
      if (waiting.rows.length > 0) break;
      if (Date.now() > deadline) throw new Error(`no session of ${applicationName} came to wait on ${table}`);
      await sleep(10);
    }
    return await terminateSessions(applicationName);
  } finally {
    await admin.query('rollback').catch(() => {});
    await admin.end();
  }
}
