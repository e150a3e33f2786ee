import { type JobDriver, job, recordingLogger, setJobsFacade } from '@x/jobs-core';
import { postgresJobDriver } from '@x/jobs-driver-pg';
import { redisJobDriver } from '@x/jobs-driver-redis';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobsFacade } from '../../src/jobs-facade.js';
import { type KyselyOutboxStore, kyselyOutboxStore } from '../../src/kysely/kysely-outbox-store.js';
import { migrateOutbox } from '../../src/kysely/migrate-outbox.js';
import { withOutbox } from '../../src/outbox-context.js';
import { createOutboxRelay, type OutboxRelay } from '../../src/outbox-relay.js';
import { openPgTestDatabase, type PgTestDatabase } from '../../test-support/pg-test-database.js';
import { deleteRedisPrefix, REDIS_URL } from '../../test-support/redis-cleanup.js';
import { observedDriver, until } from '../../test-support/relay-fixtures.js';

const billing = z.object({ orgId: z.string(), invoiceId: z.string() });
const createInvoice = job({
  name: 'scenario-create-invoice',
  queue: 'billing',
  input: billing,
  idempotencyKey: ({ invoiceId }) => `invoice:${invoiceId}`,
  tenant: ({ orgId }) => orgId,
  run: async () => undefined,
});
const chargeCard = job({
  name: 'scenario-charge-card',
  queue: 'billing',
  input: billing,
  idempotencyKey: ({ invoiceId }) => `charge:${invoiceId}`,
  tenant: ({ orgId }) => orgId,
  run: async () => undefined,
});

let pg: PgTestDatabase;
let table: string;
let store: KyselyOutboxStore;
let queue: JobDriver;
const relays: OutboxRelay[] = [];

const relay = (
  driver: JobDriver,
  options: { claimLeaseMs?: number; batch?: number; pollMs?: number; name?: string } = {},
) => {
  const created = createOutboxRelay({ store, driver, logger: recordingLogger(), pollMs: 10, ...options });
  relays.push(created);
  return created;
};
/** The app's own transaction, joined by every enqueue inside. */
const inTransaction = <T>(fn: () => Promise<T>) => pg.db.transaction().execute((trx) => withOutbox(trx, fn));
const jobsNamed = async (name: string) => (await queue.introspect?.list({ name, limit: 1000 }))?.jobs ?? [];
const outboxRows = async () =>
  (
    await sql<{ claimed_by: string | null; published: boolean }>`
      select claimed_by, published_at is not null as published
      from ${sql.table(`${pg.schema}.${table}`)} order by id`.execute(pg.db)
  ).rows;

beforeAll(async () => {
  pg = await openPgTestDatabase();
});
afterAll(async () => {
  await pg?.close();
});
/** The queues the outbox publishes to: Postgres beside the outbox, and Redis while the outbox stays in Postgres. */
const QUEUES: readonly { name: string; open(): Promise<{ driver: JobDriver; drop(): Promise<void> }> }[] = [
  {
    name: 'a Postgres queue (@x/jobs-driver-pg) beside the outbox',
    async open() {
      const schema = `${pg.table(`${pg.schema}_queue`)}`;
      const driver = postgresJobDriver({ pool: pg.pool }, { schema });
      return {
        driver,
        drop: () => pg.pool.query(`drop schema if exists "${schema}" cascade`).then(() => undefined),
      };
    },
  },
  {
    name: 'a Redis queue (@x/jobs-driver-redis) while the outbox is in Postgres',
    async open() {
      const prefix = `xjobs-outbox-test-${pg.table('r')}-${pg.schema}`;
      const driver = redisJobDriver({ url: REDIS_URL, prefix });
      return { driver, drop: () => deleteRedisPrefix(prefix) };
    },
  },
];

describe.each(QUEUES)('transactional enqueue with $name', ({ open }) => {
  let dropQueue: () => Promise<void>;
  beforeEach(async () => {
    table = pg.table('outbox');
    await migrateOutbox(pg.db, { schema: pg.schema, table });
    store = kyselyOutboxStore({ db: pg.db, schema: pg.schema, table, listen: pg.pool });
    const opened = await open();
    queue = opened.driver;
    dropQueue = opened.drop;
    await queue.stats(); // connected (and, on Postgres, migrated) before any timing-sensitive step
    setJobsFacade(createJobsFacade({ store, driver: queue, mode: 'required' }));
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((created) => created.stop()));
    setJobsFacade(null);
    await queue.close();
    await dropQueue();
  });

  it('rolled back: the job never exists, however often the relay passes', async () => {
    await expect(
      inTransaction(async () => {
        await createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'inv-1' });
        throw new Error('the invoice insert failed');
      }),
    ).rejects.toThrow('the invoice insert failed');
    const pass = relay(queue);
    expect(await pass.runOnce()).toEqual({ claimed: 0, published: 0 });
    expect(await pass.runOnce()).toEqual({ claimed: 0, published: 0 });
    expect(await jobsNamed('scenario-create-invoice')).toHaveLength(0);
    expect(await outboxRows()).toHaveLength(0);
  });

  it('committed: exactly one job, with the id the enqueue answered', async () => {
    const staged = await inTransaction(() => createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'inv-1' }));
    expect(await jobsNamed('scenario-create-invoice')).toHaveLength(0);
    const pass = relay(queue);
    expect(await pass.runOnce()).toEqual({ claimed: 1, published: 1 });
    expect(await pass.runOnce()).toEqual({ claimed: 0, published: 0 });
    expect((await jobsNamed('scenario-create-invoice')).map((row) => row.id)).toEqual([staged.id]);
    expect(await outboxRows()).toEqual([{ claimed_by: expect.any(String), published: true }]);
  });

  it('a crash between publish and markPublished: the next relay re-publishes and it dedupes', async () => {
    const staged = await inTransaction(() => createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'inv-1' }));
    const crashing = createOutboxRelay({
      store: {
        ...store,
        markPublished: async () => {
          throw new Error('the process died here');
        },
      },
      driver: queue,
      // Long enough that the survivor's first look lands inside it even on a loaded machine.
      claimLeaseMs: 1_500,
    });
    await expect(crashing.runOnce()).rejects.toThrow('the process died here');
    expect(await jobsNamed('scenario-create-invoice')).toHaveLength(1);

    const survivor = observedDriver(queue);
    const next = relay(survivor.driver);
    expect(await next.runOnce()).toEqual({ claimed: 0, published: 0 }); // the dead relay's lease still holds
    await new Promise((resolve) => setTimeout(resolve, 1_550));
    expect(await next.runOnce()).toEqual({ claimed: 1, published: 1 });
    expect(survivor.published.map((request) => request.id)).toEqual([staged.id]);
    expect((await jobsNamed('scenario-create-invoice')).map((row) => row.id)).toEqual([staged.id]);
    expect(await store.backlog()).toBe(0);
  });

  it('two relays racing over 1,000 staged rows publish each exactly once', async () => {
    const inputs = Array.from({ length: 1000 }, (_, n) => ({ orgId: 'org-1', invoiceId: `race-${n}` }));
    const staged = await inTransaction(() => createInvoice.enqueueMany(inputs));
    const observed = observedDriver(queue);
    relay(observed.driver, { batch: 50, name: 'relay-a' }).start();
    relay(observed.driver, { batch: 50, name: 'relay-b' }).start();
    await until(async () => (await store.backlog()) === 0, 30_000);
    await Promise.all(relays.splice(0).map((created) => created.stop()));
    const publishedIds = observed.published.map((request) => request.id);
    expect(publishedIds).toHaveLength(1000);
    expect(new Set(publishedIds).size).toBe(1000);
    expect(publishedIds).toEqual(staged.map((result) => result.id));
    expect(await jobsNamed('scenario-create-invoice')).toHaveLength(1000);
  });

  it("a lapsed relay's late release changes nothing: the relay that reclaimed keeps the rows", async () => {
    await inTransaction(() =>
      createInvoice.enqueueMany([1, 2, 3].map((n) => ({ orgId: 'org-1', invoiceId: `late-${n}` }))),
    );
    const [slow, fast] = [observedDriver(queue), observedDriver(queue)];
    const slowHeld = slow.hold('fail');
    const fastHeld = fast.hold('publish');
    const lapsed = relay(slow.driver, { claimLeaseMs: 30, name: 'relay-lapsed' }).runOnce();
    await slowHeld.reached;
    await new Promise((resolve) => setTimeout(resolve, 40));
    const current = relay(fast.driver, { name: 'relay-current' }).runOnce();
    await fastHeld.reached;

    slowHeld.open();
    expect(await lapsed).toEqual({ claimed: 3, published: 0 });
    // Its release was fenced out: the rows are still relay-current's, so a third relay gets none.
    expect(await relay(queue).runOnce()).toEqual({ claimed: 0, published: 0 });
    expect((await outboxRows()).every((row) => row.claimed_by?.startsWith('relay-current:'))).toBe(true);

    fastHeld.open();
    expect(await current).toEqual({ claimed: 3, published: 3 });
    expect(await jobsNamed('scenario-create-invoice')).toHaveLength(3);
    expect(await store.backlog()).toBe(0);
  });

  it("a lapsed relay's late markPublished retires nothing the current holder has not published", async () => {
    await inTransaction(() => createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'late-mark' }));
    const [slow, fast] = [observedDriver(queue), observedDriver(queue)];
    const slowHeld = slow.hold('publish');
    const fastHeld = fast.hold('fail');
    const logger = recordingLogger();
    const lapsed = createOutboxRelay({ store, driver: slow.driver, logger, claimLeaseMs: 30 }).runOnce();
    await slowHeld.reached;
    await new Promise((resolve) => setTimeout(resolve, 40));
    const current = relay(fast.driver).runOnce();
    await fastHeld.reached;

    slowHeld.open();
    await lapsed;
    expect(logger.events).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'jobs.outbox.lease-lost' }),
    );
    expect((await outboxRows())[0]?.published).toBe(false);

    fastHeld.open();
    expect(await current).toEqual({ claimed: 1, published: 0 });
    // Still staged, so a healthy relay publishes it (and it dedupes against the lapsed relay's publish).
    expect(await store.backlog()).toBe(1);
    expect(await relay(queue).runOnce()).toEqual({ claimed: 1, published: 1 });
    expect(await jobsNamed('scenario-create-invoice')).toHaveLength(1);
  });

  it('createInvoice then chargeCard staged in one transaction are queued in that order', async () => {
    await inTransaction(async () => {
      await createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'inv-9' });
      await chargeCard.enqueue({ orgId: 'org-1', invoiceId: 'inv-9' });
    });
    await relay(queue).runOnce();
    const claimed = await queue.claim({
      queues: ['billing'],
      limit: 10,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(claimed.map((row) => row.name)).toEqual(['scenario-create-invoice', 'scenario-charge-card']);
  });

  it('a failed publish of createInvoice does not let chargeCard overtake it', async () => {
    await inTransaction(() => createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'inv-10' }));
    await inTransaction(() => chargeCard.enqueue({ orgId: 'org-1', invoiceId: 'inv-10' }));
    const observed = observedDriver(queue);
    let failures = 1;
    observed.intercept(async (_requests, next) => {
      if (failures-- > 0) throw new Error('queue blip');
      return next();
    });
    const oneAtATime = relay(observed.driver, { batch: 1 });
    expect(await oneAtATime.runOnce()).toEqual({ claimed: 1, published: 0 });
    await oneAtATime.runOnce();
    await oneAtATime.runOnce();
    expect(observed.published.map((request) => request.name)).toEqual([
      'scenario-create-invoice',
      'scenario-charge-card',
    ]);
  });

  it('LISTEN wakes an idle relay on commit, long before its poll interval', async () => {
    const observed = observedDriver(queue);
    relay(observed.driver, { pollMs: 60_000 }).start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await inTransaction(() => createInvoice.enqueue({ orgId: 'org-1', invoiceId: 'wake' }));
    await until(() => observed.published.length === 1, 5000);
  });
});
