import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import type { JobsDatabase } from '../database-types.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import { ROW_COLUMN_NAMES } from '../sql/job-columns.js';
import { migrateSchema } from './migrate-schema.js';
import { MIGRATIONS } from './migration-list.js';

/** The columns a version-4 row has (later migrations add more). */
const ROW_COLUMNS = ROW_COLUMN_NAMES.join(', ');
const schema = scratchSchemaName('job_history');
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const db = new Kysely<JobsDatabase>({ dialect: new PostgresDialect({ pool }) });
const queue = `history-${schema}`;

afterAll(async () => {
  await db.destroy();
  await dropSchema(schema);
});

/** One row per state, written as a version-3 database holds them (finished rows in `jobs`). */
const ROWS = [
  { key: 'k-ready', state: 'ready', finished: false },
  { key: 'k-running', state: 'running', finished: false },
  { key: 'k-suspended', state: 'suspended', finished: false },
  { key: 'k-done', state: 'done', finished: true },
  { key: 'k-dead', state: 'dead', finished: true },
  { key: 'k-cancelled', state: 'cancelled', finished: true },
] as const;

async function seedVersion3(): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const row of ROWS) {
    const id = `job-${row.key}`;
    ids[row.key] = id;
    await adminQuery(
      `insert into "${schema}".jobs (id, run_id, name, queue, state, payload, idempotency_key, max_attempts,
         run_at, attempts, started_at, finished_at, claim_token, lease_expires_at, last_error, stop_reason,
         result, cancel_reason)
       values ($1, $2, 'upgrade-job', $3, $4, '{"n":1}', $5, 3, now() - interval '1 minute',
         $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        id,
        `run-${row.key}`,
        queue,
        row.state,
        row.key,
        row.state === 'ready' ? 0 : 1,
        row.state === 'ready' ? null : new Date(Date.now() - 30_000),
        row.finished ? new Date(Date.now() - 10_000) : null,
        row.state === 'running' ? 'token-1' : null,
        row.state === 'running' ? new Date(Date.now() + 600_000) : null,
        row.state === 'dead' ? '{"code":"E","message":"boom"}' : null,
        row.state === 'dead' ? 'terminal' : null,
        row.state === 'done' ? '{"ok":true}' : null,
        row.state === 'cancelled' ? 'operator' : null,
      ],
    );
    for (const [position, name] of ['a', 'b'].entries()) {
      await adminQuery(
        `insert into "${schema}".steps (run_id, name, position, status, output, started_at, completed_at)
         values ($1, $2, $3, 'completed', $4, now(), now())`,
        [`run-${row.key}`, name, position, JSON.stringify(`${row.key}:${name}`)],
      );
    }
  }
  return ids;
}

const everyRow = () =>
  adminQuery(
    `select ${ROW_COLUMNS} from "${schema}".jobs union all select ${ROW_COLUMNS} from "${schema}".job_history
     order by id`,
  );

describe('migration 4 (job-history)', () => {
  it('upgrades a version-3 database in place: finished rows move, rows, steps and dedupe keys intact', async () => {
    expect((await migrateSchema(db, schema, MIGRATIONS.slice(0, 3))).version).toBe(3);
    const ids = await seedVersion3();
    const before = await adminQuery(`select ${ROW_COLUMNS} from "${schema}".jobs order by id`);
    const stepsBefore = await adminQuery(`select * from "${schema}".steps order by run_id, position`);

    expect(await migrateSchema(db, schema, MIGRATIONS.slice(0, 4))).toMatchObject({ applied: [4] });

    // Every row is where its state says, every field as it was, every step kept.
    expect(await everyRow()).toEqual(before);
    const live = await adminQuery<{ state: string }>(`select state from "${schema}".jobs order by state`);
    expect(live.map((row) => row.state)).toEqual(['ready', 'running', 'suspended']);
    const finished = await adminQuery<{ state: string }>(
      `select state from "${schema}".job_history order by state`,
    );
    expect(finished.map((row) => row.state)).toEqual(['cancelled', 'dead', 'done']);
    expect(await adminQuery(`select * from "${schema}".steps order by run_id, position`)).toEqual(
      stepsBefore,
    );

    // The driver needs the schema of this release: the later migrations apply on top.
    await migrateSchema(db, schema, MIGRATIONS);
    const driver = postgresJobDriver({ db }, { schema, migrate: false });
    try {
      // Dedupe: a live key still answers its row; a finished row's key enqueues anew.
      const deduped = await driver.enqueue(
        enqueueRequest({ queue, name: 'upgrade-job', idempotencyKey: 'k-ready' }),
      );
      expect(deduped).toMatchObject({ id: ids['k-ready'], deduped: true });
      const fresh = enqueueRequest({ queue, name: 'upgrade-job', idempotencyKey: 'k-done' });
      expect(await driver.enqueue(fresh)).toMatchObject({ id: fresh.id, deduped: false });
      // A republished id of a finished row writes nothing.
      const republished = await driver.enqueue(
        enqueueRequest({ id: ids['k-done'] as string, runId: 'run-k-done', queue, name: 'upgrade-job' }),
      );
      expect(republished).toMatchObject({ id: ids['k-done'], deduped: true });

      // Introspection answers the moved rows with their steps; retry-from-step works on the dead row.
      const done = await driver.introspect.get(ids['k-done'] as string);
      expect(done).toMatchObject({ state: 'done', result: { ok: true } });
      expect(done?.steps.map((step) => step.output)).toEqual(['k-done:a', 'k-done:b']);
      expect(await driver.introspect.retry(ids['k-dead'] as string, { fromStep: 'b' })).toBe(true);
      expect(await driver.introspect.get(ids['k-dead'] as string)).toMatchObject({
        state: 'ready',
        attempts: 0,
      });
      expect((await driver.steps.load('run-k-dead')).map((step) => step.name)).toEqual(['a']);

      // The live rows are claimable as before: the ready and the due suspended one, the retried
      // dead one, the fresh one (the running one holds its lease).
      const claimed = await driver.claim({
        queues: [queue],
        limit: 10,
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(claimed.map((job) => job.id).sort()).toEqual(
        [ids['k-dead'], ids['k-ready'], ids['k-suspended'], fresh.id].sort(),
      );
    } finally {
      await driver.close();
    }
  });
});
