import { randomUUID } from 'node:crypto';
import { LATEST_MIGRATION_VERSION } from '@x/jobs-driver-pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, dropSchema } from '../../test-support/pg-fixture.js';
import { runCli } from '../../test-support/run-cli.js';
import type { MigrateJson } from './migrate.js';

describe('x-jobs migrate (PostgreSQL)', () => {
  const schema = `x_cli_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const env = { DATABASE_URL, X_JOBS_SCHEMA: schema };
  afterAll(() => dropSchema(schema));

  it('applies every migration to a fresh schema, then reports it current', async () => {
    const first = await runCli(['migrate', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const applied = first.json<MigrateJson>();
    expect(applied).toMatchObject({ backend: 'pg', schema, version: LATEST_MIGRATION_VERSION });
    expect(applied.applied?.length).toBeGreaterThan(0);

    const again = await runCli(['migrate'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(
        `^Up to date: schema ${schema} on postgres postgres://\\S+ is at version ${LATEST_MIGRATION_VERSION}\\.$`,
        'm',
      ),
    );

    const ls = await runCli(['ls', '--json'], { env });
    expect(ls.code).toBe(0);
    expect(ls.json()).toEqual({ queues: [] });
  });

  it('has nothing to migrate on a backend without a schema', async () => {
    const run = await runCli(['migrate', '--driver', 'memory', '--json']);
    expect(run.code).toBe(0);
    expect(run.json<MigrateJson>()).toEqual({ backend: 'memory', schema: null, applied: [], version: 0 });
  });

  it('fails with exit 1 and a coded error when the database is unreachable', async () => {
    const run = await runCli(['migrate', '--json'], {
      env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres', X_JOBS_SCHEMA: schema },
    });
    expect(run.code).toBe(1);
    expect(run.json<{ error: { code: string } }>().error.code).toBe('X_DRIVER_UNAVAILABLE');
  });
});
