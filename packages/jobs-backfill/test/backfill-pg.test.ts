import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  cancelJob,
  createWorker,
  type JsonValue,
  recordingLogger,
  setJobDriver,
  silentLogger,
} from '@x/jobs-core';
import { migrate, postgresJobDriver } from '@x/jobs-driver-pg';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfill } from '../src/index.js';
import { eventually, startChildWorker } from './child-worker.js';
import {
  adminQuery,
  createItems,
  DATABASE_URL,
  dropSchema,
  type ItemsDatabase,
  itemsDatabase,
  scratchSchemaName,
} from './pg-scratch.js';

const schema = scratchSchemaName('pg');
const WORKER = fileURLToPath(new URL('./fixtures/kill-pass-worker.ts', import.meta.url));
let driver: ReturnType<typeof postgresJobDriver>;
let db: Kysely<ItemsDatabase>;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  await createItems(schema, 50);
  driver = postgresJobDriver({ connectionString: DATABASE_URL, max: 4 }, { schema, migrate: false });
  setJobDriver(driver);
  db = itemsDatabase(schema);
});

afterAll(async () => {
  await db?.destroy();
  await driver?.close();
  await dropSchema(schema);
});

/** A worker in this process over the test's driver, for the jobs given. */
function localWorker(queue: string, jobs: readonly { name: string }[]) {
  return createWorker({
    driver,
    context: () => ({}),
    registry: { get: (name) => jobs.find((handle) => handle.name === name) as never },
    queues: [queue],
    heartbeatIntervalMs: 200,
    visibilityTimeoutMs: 3_000,
    handleSignals: false,
    logger: silentLogger,
  });
}

describe('backfill() on Postgres', () => {
  it('a worker SIGKILLed mid-pass: the next worker resumes at the page it stopped on', async () => {
    const { id, runId } = await driver.enqueue({
      id: randomUUID(),
      runId: randomUUID(),
      name: 'kill-pass',
      queue: 'kill-pass',
      payload: {},
      tenantId: null,
      idempotencyKey: 'kill-pass',
      priority: 0,
      maxAttempts: 5,
    });
    const first = startChildWorker(WORKER, [schema, '3']);
    let second: ReturnType<typeof startChildWorker> | undefined;
    try {
      await first.waitFor('stalled 3');
      const opened = await driver.backfills?.get('kill-pass', runId);
      expect(opened).toMatchObject({ status: 'running', rowsProcessed: 15, cursor: 15 });
      await first.kill();

      second = startChildWorker(WORKER, [schema]);
      const done = await eventually(
        'the pass to finish',
        async () => {
          const row = await driver.introspect?.get(id);
          return row?.state === 'done' ? row : undefined;
        },
        90_000,
      );
      expect(done.result).toEqual({ name: 'kill-pass', batches: 10, rows: 50, skipped: false, cursor: 45 });
      expect(done.attempts).toBe(2);
      expect(done.steps.map((step) => step.name)).toEqual(Array.from({ length: 10 }, (_, i) => `batch:${i}`));

      const handled = await adminQuery<{ page: number; pid: number }>(
        `select page, pid from "${schema}".handled order by page, pid`,
      );
      const byPid = (pid: number | undefined) =>
        handled.filter((row) => row.pid === pid).map((row) => row.page);
      expect(byPid(first.child.pid)).toEqual([0, 1, 2, 3]);
      // The second worker never re-read pages 0-2: it started at the page the first one died in.
      expect(byPid(second.child.pid)).toEqual([3, 4, 5, 6, 7, 8, 9]);
      const touched = await adminQuery<{ touched: number; n: number }>(
        `select touched, count(*)::int as n from "${schema}".items group by touched order by touched`,
      );
      expect(touched).toEqual([
        { touched: 1, n: 45 },
        { touched: 2, n: 5 }, // page 3: handled at least once, here twice
      ]);
      expect(await driver.backfills?.get('kill-pass', runId)).toMatchObject({
        status: 'completed',
        rowsProcessed: 50,
        startedAt: opened?.startedAt, // the retry adopted the row the first attempt opened
      });
    } finally {
      await first.kill();
      await second?.kill();
    }
  }, 120_000); // two worker processes start under tsx: ~5 s each idle, several times that while the whole suite runs

  it('a Kysely source pages by key with no trailing empty page, and the ledger rules hold', async () => {
    const seen: number[] = [];
    const logger = recordingLogger();
    const queue = `q-${randomUUID()}`;
    const sweep = backfill({
      name: `kysely-${randomUUID()}`,
      queue,
      batch: 7,
      rate: 1000,
      tenant: 'none',
      source: {
        query: () => db.selectFrom('items').select(['id', 'touched']).where('id', '<=', 21),
        key: 'items.id',
      },
      handle: ({ rows }) => {
        seen.push(...rows.map((row) => row.id));
      },
      count: async () => 0,
      logger,
    });
    const worker = localWorker(queue, [sweep]);
    const first = await sweep.enqueue({});
    await worker.runDue();
    const row = await driver.introspect?.get(first.id);
    expect(row?.result).toMatchObject({ batches: 3, rows: 21, skipped: false, cursor: 14 });
    expect(seen).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));

    const again = await sweep.enqueue({});
    await worker.runDue();
    expect((await driver.introspect?.get(again.id))?.result).toMatchObject({
      skipped: true,
      previousRunId: first.runId,
    });
    const forced = await sweep.enqueue({ force: true });
    await worker.runDue();
    expect((await driver.introspect?.get(forced.id))?.result).toMatchObject({ skipped: false, rows: 21 });
    const ledger = await driver.backfills?.list({ name: sweep.name });
    expect(ledger?.map((entry) => [entry.runId, entry.status])).toEqual([
      [forced.runId, 'completed'],
      [first.runId, 'completed'],
    ]);
    await worker.stop();
  });

  it('a source that runs out while count() still matches rows dead-letters X_BACKFILL_STALLED', async () => {
    const queue = `q-${randomUUID()}`;
    const sweep = backfill({
      name: `stalled-${randomUUID()}`,
      queue,
      batch: 4,
      rate: 1000,
      tenant: 'none',
      // An authoring bug: the source selects ids up to 10, the count asks about ids up to 12.
      source: { query: () => db.selectFrom('items').select(['id']).where('id', '<=', 10), key: 'id' },
      handle: () => undefined,
      count: async () => {
        const row = await db
          .selectFrom('items')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('id', '>', 10)
          .where('id', '<=', 12)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      },
      logger: silentLogger,
    });
    const worker = localWorker(queue, [sweep]);
    const { id, runId } = await sweep.enqueue({});
    await worker.runDue();
    const row = await driver.introspect?.get(id);
    expect(row).toMatchObject({ state: 'dead', attempts: 1, stopReason: 'terminal' });
    expect(row?.lastError?.code).toBe('X_BACKFILL_STALLED');
    expect(await driver.backfills?.get(sweep.name, runId)).toMatchObject({
      status: 'failed',
      rowsProcessed: 10,
    });
    await worker.stop();
  });

  it('cancelling a running pass unwinds its pause at once: no further page, the row marked failed', async () => {
    const queue = `q-${randomUUID()}`;
    let handled = 0;
    const sweep = backfill({
      name: `cancel-${randomUUID()}`,
      queue,
      batch: 1,
      rate: 0.02, // one page every 50 s: only an unwound pause lets the row settle within the test
      tenant: 'none',
      pages: async ({ cursor }) => {
        const n = typeof cursor === 'number' ? cursor + 1 : 1;
        return { rows: [n], next: n < 100 ? (n as JsonValue) : null };
      },
      handle: () => {
        handled += 1;
      },
      logger: silentLogger,
    });
    const worker = localWorker(queue, [sweep]);
    const { id, runId } = await sweep.enqueue({});
    await worker.start();
    try {
      await eventually('the first page', async () => (handled >= 1 ? true : undefined));
      await cancelJob(driver, id, 'operator stop');
      const failed = await eventually(
        'the pass to unwind',
        async () => {
          const entry = await driver.backfills?.get(sweep.name, runId);
          return entry?.status === 'failed' ? entry : undefined;
        },
        20_000,
      );
      expect(failed.rowsProcessed).toBe(1);
      expect((await driver.introspect?.get(id))?.state).toBe('cancelled');
      expect(handled).toBe(1);
    } finally {
      await worker.stop();
    }
  });
});
