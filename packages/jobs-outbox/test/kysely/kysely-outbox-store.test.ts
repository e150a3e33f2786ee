import { outboxStoreConformance } from '@x/jobs-conformance';
import { CamelCasePlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kyselyOutboxStore } from '../../src/kysely/kysely-outbox-store.js';
import { migrateOutbox } from '../../src/kysely/migrate-outbox.js';
import { openPgTestDatabase, type PgTestDatabase } from '../../test-support/pg-test-database.js';
import { testRequest, until } from '../../test-support/relay-fixtures.js';

let pg: PgTestDatabase;
beforeAll(async () => {
  pg = await openPgTestDatabase();
});
afterAll(async () => {
  await pg?.close();
});

outboxStoreConformance({
  name: 'kysely-postgres',
  async create() {
    const table = pg.table('conformance');
    await migrateOutbox(pg.db, { schema: pg.schema, table });
    const store = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table });
    return { store, transaction: (fn) => pg.db.transaction().execute(fn) };
  },
});

const request = (label: string) => testRequest(label, 1);

describe('kyselyOutboxStore', () => {
  it('refuses the Kysely instance itself as a transaction (staging there would commit alone)', async () => {
    const table = pg.table();
    await migrateOutbox(pg.db, { schema: pg.schema, table });
    const store = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table });
    await expect(store.stage(pg.db as never, request('a'))).rejects.toMatchObject({
      code: 'X_OUTBOX_TX_INVALID',
    });
  });

  it('answers X_OUTBOX_TABLE_MISSING when the migration never ran', async () => {
    const store = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table: pg.table('missing') });
    await expect(store.backlog()).rejects.toMatchObject({ code: 'X_OUTBOX_TABLE_MISSING' });
    await expect(pg.db.transaction().execute((trx) => store.stage(trx, request('a')))).rejects.toMatchObject({
      code: 'X_OUTBOX_TABLE_MISSING',
    });
  });

  it('works on a Kysely instance with CamelCasePlugin, keeping payload key order verbatim', async () => {
    const table = pg.table();
    const camel = pg.db.withPlugin(new CamelCasePlugin());
    await migrateOutbox(camel, { schema: pg.schema, table });
    const store = kyselyOutboxStore({ db: camel, schema: pg.schema, table });
    const unsorted = { ...request('camel'), payload: { z: 1, a: [2, { y: 'x', b: null }] } };
    await camel.transaction().execute((trx) => store.stage(trx, unsorted));
    const [record] = await store.claim({ claimant: 'c', limit: 10, leaseMs: 60_000 });
    expect(JSON.stringify(record?.request.payload)).toBe(JSON.stringify(unsorted.payload));
    expect(record?.stagedAt).toBeGreaterThan(0);
  });

  it('migrateOutbox is idempotent and safe to run concurrently', async () => {
    const table = pg.table();
    await Promise.all([1, 2, 3].map(() => migrateOutbox(pg.db, { schema: pg.schema, table })));
    await migrateOutbox(pg.db, { schema: pg.schema, table });
    const store = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table });
    expect(await store.backlog()).toBe(0);
  });

  it('prunePublished deletes published rows past the cutoff and keeps the backlog', async () => {
    const table = pg.table();
    await migrateOutbox(pg.db, { schema: pg.schema, table });
    const store = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table });
    await pg.db.transaction().execute((trx) => store.stageMany(trx, [request('a'), request('b')]));
    const [first] = await store.claim({ claimant: 'c', limit: 1, leaseMs: 60_000 });
    expect(await store.markPublished('c', [first?.id ?? ''])).toBe(1);
    expect(await store.prunePublished(3_600_000)).toBe(0);
    expect(await store.prunePublished(0)).toBe(1);
    expect(await store.backlog()).toBe(1);
  });

  it('with notify: false stages without waking anyone, and refuses a listen pool it could never wake', async () => {
    const table = pg.table();
    await migrateOutbox(pg.db, { schema: pg.schema, table });
    const listener = await pg.pool.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.channel));
    try {
      await listener.query(`listen "${table}"`);
      const quiet = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table, notify: false });
      await pg.db.transaction().execute((trx) => quiet.stage(trx, request('quiet')));
      const loud = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table });
      await pg.db.transaction().execute((trx) => loud.stage(trx, request('loud')));
      await until(() => heard.length > 0);
      await listener.query('select 1'); // anything still queued for this session arrives before the reply
      expect(heard).toEqual([table]);
      expect(await loud.backlog()).toBe(2);
    } finally {
      listener.release(true);
    }
    expect(() => kyselyOutboxStore({ db: pg.db, notify: false, listen: pg.pool })).toThrow(
      expect.objectContaining({ code: 'X_OUTBOX_OPTIONS_INVALID' }),
    );
  });

  it('refuses a schema or table that is not a plain identifier', () => {
    expect(() => kyselyOutboxStore({ db: pg.db, table: 'x; drop table y' })).toThrow(
      expect.objectContaining({ code: 'X_OUTBOX_OPTIONS_INVALID' }),
    );
  });
});
