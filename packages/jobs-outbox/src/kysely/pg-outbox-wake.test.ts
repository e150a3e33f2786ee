import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgTestDatabase, type PgTestDatabase } from '../../test-support/pg-test-database.js';
import { until } from '../../test-support/relay-fixtures.js';
import { pgOutboxWake } from './pg-outbox-wake.js';

let pg: PgTestDatabase;
beforeAll(async () => {
  pg = await openPgTestDatabase();
});
afterAll(async () => {
  await pg?.close();
});

const listenerPids = async (channel: string) =>
  (
    await pg.pool.query<{ pid: number }>(
      `select pid from pg_stat_activity where query = $1 and datname = current_database()`,
      [`listen "${channel}"`],
    )
  ).rows.map((row) => row.pid);

describe('pgOutboxWake', () => {
  it('signals on commit only, and holds no connection once the last subscriber leaves', async () => {
    const channel = pg.table('wake');
    const wake = pgOutboxWake({ pool: pg.pool, channel });
    const woken: string[] = [];
    const unsubscribe = wake.subscribe((name) => woken.push(name));
    await until(async () => (await listenerPids(channel)).length === 1);
    await until(() => woken.length === 1); // the catch-up signal once listening
    const client = await pg.pool.connect();
    try {
      await client.query('begin');
      await client.query('select pg_notify($1, $2)', [channel, '']);
      await client.query('rollback');
      await client.query('select pg_notify($1, $2)', [channel, '']);
    } finally {
      client.release();
    }
    await until(() => woken.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(woken).toEqual([channel, channel]);
    unsubscribe();
    await until(async () => (await listenerPids(channel)).length === 0);
  });

  it('reconnects after its connection is killed and wakes again', async () => {
    const channel = pg.table('wake');
    const wake = pgOutboxWake({ pool: pg.pool, channel, retryMs: 20 });
    let woken = 0;
    const unsubscribe = wake.subscribe(() => {
      woken += 1;
    });
    await until(async () => (await listenerPids(channel)).length === 1);
    const [pid] = await listenerPids(channel);
    await pg.pool.query('select pg_terminate_backend($1)', [pid]);
    await until(async () => {
      const pids = await listenerPids(channel);
      return pids.length === 1 && pids[0] !== pid;
    });
    const before = woken;
    await pg.pool.query('select pg_notify($1, $2)', [channel, '']);
    await until(() => woken > before);
    unsubscribe();
    await until(async () => (await listenerPids(channel)).length === 0);
  });
});
