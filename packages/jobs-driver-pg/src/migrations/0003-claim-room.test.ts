import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import type { JobsDatabase } from '../database-types.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import { migrateSchema } from './migrate-schema.js';
import { MIGRATIONS } from './migration-list.js';

const schema = scratchSchemaName('claim_room');
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const db = new Kysely<JobsDatabase>({ dialect: new PostgresDialect({ pool }) });

afterAll(async () => {
  await db.destroy();
  await dropSchema(schema);
});

const fillfactor = async (): Promise<string[] | null> =>
  (
    await adminQuery<{ reloptions: string[] | null }>(
      `select c.reloptions from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relname = 'jobs'`,
      [schema],
    )
  )[0]?.reloptions ?? null;

describe('migration 3 (claim-room)', () => {
  it('upgrades a version-2 schema holding jobs to fillfactor 40, rows untouched', async () => {
    expect((await migrateSchema(db, schema, MIGRATIONS.slice(0, 2))).version).toBe(2);
    expect(await fillfactor()).toEqual(['fillfactor=50']);
    // Seeded by SQL: today's driver writes the tables of later migrations too.
    const request = enqueueRequest({ queue: `room-${schema}` });
    await adminQuery(
      `insert into "${schema}".jobs (id, run_id, name, queue, state, payload, idempotency_key, max_attempts, run_at)
       values ($1, $2, $3, $4, 'ready', '{}', $5, 3, now())`,
      [request.id, request.runId, request.name, request.queue, request.idempotencyKey],
    );
    expect(await migrateSchema(db, schema, MIGRATIONS.slice(0, 3))).toMatchObject({
      applied: [3],
      version: 3,
    });
    const driver = postgresJobDriver({ db }, { schema, migrate: false });
    expect(await fillfactor()).toEqual(['fillfactor=40']);
    const [claimed] = await driver.claim({
      queues: [request.queue],
      limit: 1,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(claimed?.id).toBe(request.id);
    await driver.close();
  });
});
