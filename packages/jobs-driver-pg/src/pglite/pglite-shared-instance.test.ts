import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueRequest } from '../../test/enqueue-request.js';
import type { PostgresJobDriver } from '../sql-job-driver.js';
import { pgliteJobDriver } from './index.js';

// One in-memory PGlite shared by "the app" (its own Kysely and table) and the queue.
let pglite: PGlite;
let app: Kysely<{ signups: { email: string } }>;
let driver: PostgresJobDriver;

beforeAll(async () => {
  pglite = await PGlite.create();
  app = new Kysely({ dialect: new PGliteDialect(pglite) });
  await sql`create table signups (email text primary key)`.execute(app);
  driver = await pgliteJobDriver({ pglite, db: app, schema: 'shared_queue' });
});
afterAll(async () => {
  await driver.close();
  await app.destroy(); // closes the PGlite instance too
});

describe('pgliteJobDriver on a PGlite instance shared with the app', () => {
  it("waits for the app's open transaction: a rollback of the app never takes a job the driver answered", async () => {
    const request = enqueueRequest({ queue: 'shared' });
    let enqueued: Promise<unknown> | undefined;
    await expect(
      app.transaction().execute(async (trx) => {
        await trx.insertInto('signups').values({ email: 'a@example.com' }).execute();
        // The queue writes while the app's transaction is open; it must not land inside it.
        enqueued = driver.enqueue(request);
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error('the app rolls back');
      }),
    ).rejects.toThrow('the app rolls back');
    await expect(enqueued).resolves.toMatchObject({ id: request.id, deduped: false });
    expect(await app.selectFrom('signups').selectAll().execute()).toEqual([]);
    expect((await driver.introspect.get(request.id))?.state).toBe('ready');
  });

  it('refuses db without the pglite it runs on', async () => {
    await expect(pgliteJobDriver({ db: app })).rejects.toMatchObject({
      code: 'X_PG_OPTIONS_INVALID',
      meta: { field: 'db' },
    });
  });
});
