import { PGlite } from '@electric-sql/pglite';
import { OUTBOX_STORE_CASES, runOutboxStoreCase } from '@x/jobs-conformance';
import { PGliteDialect, pgliteJobDriver } from '@x/jobs-driver-pg/pglite';
import { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kyselyOutboxStore } from '../../src/kysely/kysely-outbox-store.js';
import { migrateOutbox } from '../../src/kysely/migrate-outbox.js';
import { createOutboxRelay } from '../../src/outbox-relay.js';
import { testRequest } from '../../test-support/relay-fixtures.js';

// One in-memory PGlite for the file, a fresh outbox table per case. PGlite is a single session
// and the Kysely instance over it runs one statement (or transaction) at a time.
let pglite: PGlite;
// biome-ignore lint/suspicious/noExplicitAny: tests use raw SQL against tables they create.
let db: Kysely<any>;
let tables = 0;
beforeAll(async () => {
  pglite = await PGlite.create();
  db = new Kysely({ dialect: new PGliteDialect(pglite) });
}, 180_000); // starting PGlite takes seconds, and far longer while the whole suite runs
afterAll(async () => {
  await db?.destroy(); // leaves the PGlite instance open: close it too
  await pglite?.close();
});

async function freshStore() {
  tables += 1;
  const table = `outbox_${tables}`;
  await migrateOutbox(db, { table });
  return kyselyOutboxStore({ db, table });
}

// This case awaits a claim from outside a transaction it holds open: on one session that claim
// waits for the commit, so the case waits on itself. Its guarantee is checked below instead.
const NEEDS_TWO_SESSIONS = 'rows are invisible to claim until their transaction commits';

describe('kyselyOutboxStore on PGlite: the outbox store conformance cases', () => {
  for (const testCase of OUTBOX_STORE_CASES.filter((c) => c.name !== NEEDS_TWO_SESSIONS)) {
    it(`${testCase.group}: ${testCase.name}`, () =>
      runOutboxStoreCase(testCase, {
        create: async () => ({
          store: await freshStore(),
          transaction: (fn) => db.transaction().execute(fn),
        }),
      }));
  }
});

describe('kyselyOutboxStore on PGlite', () => {
  it('a claim made while a staging transaction is open runs after its commit, and takes its rows', async () => {
    const store = await freshStore();
    const request = testRequest('held', 1);
    let claimed!: ReturnType<typeof store.claim>;
    await db.transaction().execute(async (trx) => {
      await store.stage(trx, request);
      claimed = store.claim({ claimant: 'relay', limit: 10, leaseMs: 60_000 }); // queued, not awaited
    });
    expect((await claimed).map((record) => record.request.id)).toEqual([request.id]);
  });

  it('a claim made while a staging transaction is open sees nothing of it when it rolls back', async () => {
    const store = await freshStore();
    let claimed!: ReturnType<typeof store.claim>;
    const failure = new Error('rolled back on purpose');
    await expect(
      db.transaction().execute(async (trx) => {
        await store.stage(trx, testRequest('rolled-back', 1));
        claimed = store.claim({ claimant: 'relay', limit: 10, leaseMs: 60_000 });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await claimed).toEqual([]);
    expect(await store.backlog()).toBe(0);
  });

  it('a relay publishes what committed, in order, and marks it published', async () => {
    const store = await freshStore();
    // The queue on the same PGlite, through the same Kysely: the shape the demo runs.
    const driver = await pgliteJobDriver({ pglite, db, schema: 'relay_queue' });
    const requests = [1, 2, 3].map((n) => testRequest('relay', n));
    await db.transaction().execute((trx) => store.stageMany(trx, requests));
    const relay = createOutboxRelay({ store, driver, name: 'pglite-relay' });
    expect(await relay.runOnce()).toEqual({ claimed: 3, published: 3 });
    expect(await store.backlog()).toBe(0);
    const page = await driver.introspect.list({ queue: requests[0]?.queue ?? '' });
    expect(page.jobs.map((job) => job.id).sort()).toEqual(requests.map((r) => r.id).sort());
    await driver.close();
  });
});
