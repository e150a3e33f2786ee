import { attemptFailureOf } from '@x/jobs-core/driver';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import type { JobsDatabase } from '../database-types.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import { migrateSchema } from './migrate-schema.js';
import { MIGRATIONS } from './migration-list.js';

const schema = scratchSchemaName('attempt_errors');
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const db = new Kysely<JobsDatabase>({ dialect: new PostgresDialect({ pool }) });
const queue = `attempt-errors-${schema}`;

afterAll(async () => {
  await db.destroy();
  await dropSchema(schema);
});

/** A row as a version-5 database holds it: live in `jobs` or finished in `job_history`. */
async function seed(table: 'jobs' | 'job_history', id: string, state: string, token: string | null) {
  await adminQuery(
    `insert into "${schema}".${table} (id, ${table === 'job_history' ? 'seq, ' : ''}run_id, name, queue, state,
       payload, idempotency_key, priority, enqueued_at, max_attempts, run_at, attempts, started_at, claim_token, lease_expires_at,
       last_error, finished_at)
     values ($1, ${table === 'job_history' ? '900, ' : ''}$2, 'upgrade-job', $3, $4, '{}', $1, 0, now(), 3, now(), 1, now(),
       $5, $6, $7, $8)`,
    [
      id,
      `run-${id}`,
      queue,
      state,
      token,
      token === null ? null : new Date(Date.now() + 600_000),
      state === 'dead' ? '{"code":"E","message":"before the upgrade"}' : null,
      state === 'dead' ? new Date() : null,
    ],
  );
}

describe('migration 6 (attempt-errors)', () => {
  it('upgrades a populated version-5 database in place: old rows list no errors, a running one records its next failure', async () => {
    expect((await migrateSchema(db, schema, MIGRATIONS.slice(0, 5))).version).toBe(5);
    await seed('jobs', 'job-running', 'running', 'token-1');
    await seed('job_history', 'job-dead', 'dead', null);
    expect(await migrateSchema(db, schema, MIGRATIONS.slice(0, 6))).toMatchObject({ applied: [6] });

    const driver = postgresJobDriver({ db }, { schema, migrate: false });
    try {
      expect(await driver.introspect.get('job-dead')).toMatchObject({
        state: 'dead',
        lastError: { code: 'E', message: 'before the upgrade' },
        errors: [],
      });
      const failure = attemptFailureOf(new Error('after the upgrade'), { attempt: 1, step: 'charge' });
      const claim = { workerId: 'w', token: 'token-1' };
      const error = { code: 'ERROR', message: 'after the upgrade' };
      expect(
        await driver.nack('job-running', claim, { kind: 'dead', error, stopReason: 'terminal', failure }),
      ).toBe(true);
      const dead = await driver.introspect.get('job-running');
      expect(dead?.state).toBe('dead');
      expect(dead?.errors.map(({ at: _at, ...rest }) => rest)).toEqual([failure]);
    } finally {
      await driver.close();
    }
  });
});
