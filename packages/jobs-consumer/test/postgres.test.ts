import { resetJobDriver, setJobDriver } from '@x/jobs-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumer, consumerArm } from '../src/index.js';
import { DATABASE_URL, postgresFixture, until } from './postgres-fixture.js';

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
let fixture: Awaited<ReturnType<typeof postgresFixture>>;
let pool: pg.Pool;

beforeAll(async () => {
  fixture = await postgresFixture('consumer');
  setJobDriver(fixture.driver);
  pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
  const s = `"${fixture.schema}"`;
  await pool.query(`create table ${s}.cursors (key text primary key, next integer not null)`);
  await pool.query(`create table ${s}.effects (key text not null, id integer not null)`);
});
afterAll(async () => {
  resetJobDriver();
  await pool.end();
  await fixture.drop();
});

describe('consumer() on Postgres with a real worker', () => {
  it('saves each cursor in the batch transaction, and re-arms a dead key from it', async () => {
    const s = `"${fixture.schema}"`;
    const feed = Array.from({ length: 10 }, (_, i) => i + 1);
    let poison = 7; // the batch holding this id fails once, killing the body (attempts: 1)
    const c = consumer<number, number, pg.PoolClient>({
      name: unique('pg.orders'),
      queue: unique('q'),
      tenant: (key) => `org-${key}`,
      keys: () => ['a'],
      open: async function* ({ cursor }) {
        for (const id of feed) if (id > (cursor ?? 0)) yield id;
      },
      handle: async ({ key, items, tx }) => {
        for (const id of items)
          await tx.query(`insert into ${s}.effects (key, id) values ($1, $2)`, [key, id]);
        if (items.includes(poison)) {
          poison = 0;
          throw new Error('poisoned batch'); // after the writes: the rollback must undo them
        }
        return items[items.length - 1]!;
      },
      transaction: async (work) => {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const next = await work(client);
          await client.query('commit');
          return next;
        } catch (error) {
          await client.query('rollback');
          throw error;
        } finally {
          client.release();
        }
      },
      cursor: {
        load: async (key) => {
          const { rows } = await pool.query(`select next from ${s}.cursors where key = $1`, [key]);
          return rows[0]?.next ?? null;
        },
        save: async (key, next, tx) => {
          await tx.query(
            `insert into ${s}.cursors (key, next) values ($1, $2) on conflict (key) do update set next = excluded.next`,
            [key, next],
          );
        },
      },
      batch: 3,
      retry: { attempts: 1 },
    });
    const arm = consumerArm(c);
    await fixture.worker([c, arm]);
    const first = await c.enqueue({ key: 'a' });
    await until(async () => (await fixture.driver.introspect!.get(first.id))?.state === 'dead');
    const cursorAfterDeath = await pool.query(`select next from ${s}.cursors where key = 'a'`);
    expect(cursorAfterDeath.rows[0]?.next).toBe(6);

    const pass = await arm.enqueue({});
    await until(async () => (await fixture.driver.introspect!.get(pass.id))?.state === 'done');
    expect((await fixture.driver.introspect!.get(pass.id))?.result).toEqual({ keys: 1, armed: 1, live: 0 });
    await until(
      async () => (await pool.query(`select next from ${s}.cursors where key = 'a'`)).rows[0]?.next === 10,
    );
    const effects = await pool.query(`select id from ${s}.effects where key = 'a' order by id`);
    expect(effects.rows.map((row) => row.id)).toEqual(feed); // each exactly once: the poisoned batch rolled back
    const rows = await fixture.driver.introspect!.list({ name: c.name, limit: 10 });
    expect(rows.jobs.map((row) => row.tenantId)).toEqual(['org-a', 'org-a']);
  });

  it('a drain mid-batch hands the row back uncounted with the cursor unmoved, and the next worker resumes there', async () => {
    const cursors = new Map<string, number>();
    const handled: number[] = [];
    let blockSecondBatch = true;
    let inSecondBatch = false;
    const c = consumer<number, number>({
      name: unique('pg.drained'),
      queue: unique('q'),
      tenant: 'none',
      keys: () => ['a'],
      open: async function* ({ cursor }) {
        for (let id = (cursor ?? 0) + 1; id <= 6; id += 1) yield id;
      },
      handle: async ({ items, signal }) => {
        if (items[0] === 3 && blockSecondBatch) {
          inSecondBatch = true; // a slow write the drain interrupts
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
        }
        handled.push(...items);
        return items[items.length - 1]!;
      },
      cursor: { load: (key) => cursors.get(key) ?? null, save: (key, next) => void cursors.set(key, next) },
      batch: 2,
    });
    const first = await fixture.worker([c]);
    const { id } = await c.enqueue({ key: 'a' });
    await until(() => inSecondBatch);
    await first.drain();
    expect(await fixture.driver.introspect!.get(id)).toMatchObject({ state: 'ready', attempts: 0 });
    expect(cursors.get('a')).toBe(2);
    blockSecondBatch = false;
    await fixture.worker([c]);
    await until(async () => (await fixture.driver.introspect!.get(id))?.state === 'done');
    expect(handled).toEqual([1, 2, 3, 4, 5, 6]);
    expect(cursors.get('a')).toBe(6);
  });
});
