import { PGlite } from '@electric-sql/pglite';
import { jobDriverConformance } from '@x/jobs-conformance';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect } from '../../src/pglite/pglite-dialect.js';
import { pgliteJobDriver } from '../../src/pglite/pglite-job-driver.js';
import { enqueueRequest } from '../enqueue-request.js';

// One PGlite instance for the whole file (~700 MB and seconds to start); every case gets its own
// driver over it. Cases use unique queue names, so they share the schema.
let pglite: PGlite;
const schema = 'x_jobs_conformance';

beforeAll(async () => {
  pglite = await PGlite.create();
  const first = await pgliteJobDriver({ pglite, schema });
  await first.close();
}, 180_000); // starting PGlite takes seconds, and far longer while the whole suite runs
afterAll(async () => {
  await pglite.close();
});

jobDriverConformance({
  name: 'pglite',
  create: ({ queues }) => pgliteJobDriver({ pglite, schema, migrate: false, queues }),
});

describe('pgliteJobDriver on a PGlite instance shared with the app', () => {
  it("waits for the app's open transaction when given its Kysely: an app rollback never takes an answered enqueue", async () => {
    // The app's own Kysely over the same instance (destroying it would leave PGlite open; the file closes PGlite).
    const app = new Kysely<{ signups: { email: string } }>({ dialect: new PGliteDialect(pglite) });
    await sql`create table signups (email text primary key)`.execute(app);
    const driver = await pgliteJobDriver({ pglite, db: app, schema: 'shared_queue' });
    try {
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
    } finally {
      await driver.close();
    }
  });

  it('refuses db without the pglite it runs on', async () => {
    const app = new Kysely({ dialect: new PGliteDialect(pglite) });
    await expect(pgliteJobDriver({ db: app })).rejects.toMatchObject({
      code: 'X_PG_OPTIONS_INVALID',
      meta: { field: 'db' },
    });
  });
});
