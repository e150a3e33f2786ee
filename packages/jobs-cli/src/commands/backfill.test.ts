import type { JobDriver } from '@x/jobs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { BackfillListJson, BackfillPendingJson, BackfillSweepJson } from './backfill.js';

const MODULE = 'test-support/fixtures/backfill-app.mjs';
let pg: PgFixture;

beforeAll(async () => {
  pg = await pgFixture();
});

afterAll(async () => {
  await pg?.drop();
});

async function queued(driver: JobDriver, name: string): Promise<number> {
  const page = await driver.introspect?.list({ name, limit: 100 });
  return page?.jobs.length ?? 0;
}

// Each case runs the built binary four to six times (a few seconds each on a loaded 2-core machine).
describe('x-jobs backfill', { timeout: 120_000 }, () => {
  it('--pending lists what is declared and not swept, and exits 1 while anything is', async () => {
    const run = await pg.cli(['backfill', '--pending', '--module', MODULE, '--json']);
    expect(run.code, run.stderr).toBe(1);
    const report = run.json<BackfillPendingJson>();
    expect(report.environment).toBe('development');
    expect(Object.fromEntries(report.rows.map((row) => [row.name, row.state]))).toEqual({
      'cli-sweep-orgs': 'pending',
      'cli-prod-only': 'excluded',
      'cli-needs-migration': 'pending',
      'cli-per-org': 'pending',
    });
    expect(report.pending).toEqual(['cli-sweep-orgs', 'cli-needs-migration', 'cli-per-org']);

    const prod = await pg.cli([
      'backfill',
      '--pending',
      '--module',
      MODULE,
      '--environment',
      'production',
      '--json',
    ]);
    expect(prod.json<BackfillPendingJson>().pending).toContain('cli-prod-only');

    const text = await pg.cli(['backfill', '--pending', '--module', MODULE]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^cli-sweep-orgs\s+pending/m);
    expect(text.stdout).toContain('3 unswept in development');
  });

  it('a name alone is a dry run; --write enqueues; a completed name needs --force', async () => {
    const dry = await pg.cli(['backfill', 'cli-sweep-orgs', '--module', MODULE, '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json<BackfillSweepJson>()).toEqual({
      environment: 'development',
      write: false,
      results: [
        {
          name: 'cli-sweep-orgs',
          ledgerName: 'cli-sweep-orgs',
          state: 'pending',
          count: 0,
          unchecked: [],
          refusal: null,
          enqueued: null,
          error: null,
        },
      ],
    });
    expect(await queued(pg.driver, 'cli-sweep-orgs')).toBe(0);

    const write = await pg.cli(['backfill', 'cli-sweep-orgs', '--module', MODULE, '--write', '--json']);
    expect(write.code, write.stderr).toBe(0);
    expect(write.json<BackfillSweepJson>().results[0]?.enqueued).toMatchObject({ deduped: false });
    expect(await queued(pg.driver, 'cli-sweep-orgs')).toBe(1);

    const worker = await pg.cli(['worker', '--module', MODULE, '--once', '--json']);
    expect(worker.code, worker.stderr).toBe(0);
    const [pass] = (await pg.driver.introspect?.list({ name: 'cli-sweep-orgs', limit: 10 }))?.jobs ?? [];
    expect(pass?.state).toBe('done');

    const list = await pg.cli(['backfill', '--list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json<BackfillListJson>().runs).toEqual([
      expect.objectContaining({ name: 'cli-sweep-orgs', status: 'completed', rowsProcessed: 5 }),
    ]);
    const listed = await pg.cli(['backfill', '--list']);
    expect(listed.stdout).toMatch(/^cli-sweep-orgs\s+completed\s+5\s/m);

    const again = await pg.cli(['backfill', 'cli-sweep-orgs', '--module', MODULE, '--write', '--json']);
    expect(again.code).toBe(1);
    expect(again.json<BackfillSweepJson>().results[0]?.refusal?.code).toBe('X_BACKFILL_COMPLETED');

    const forced = await pg.cli([
      'backfill',
      'cli-sweep-orgs',
      '--module',
      MODULE,
      '--write',
      '--force',
      '--json',
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.json<BackfillSweepJson>().results[0]?.enqueued).toMatchObject({ deduped: false });
  });

  it('--all --write is isolated per name: a refused or failing one never stops the others', async () => {
    const own = await pgFixture();
    try {
      const run = await own.cli(['backfill', '--all', '--write', '--module', MODULE, '--json'], {
        env: { FIXTURE_APPLIED: '' },
      });
      expect(run.code).toBe(1);
      const { results } = run.json<BackfillSweepJson>();
      expect(results.map((view) => view.name)).toEqual([
        'cli-sweep-orgs',
        'cli-needs-migration',
        'cli-per-org',
      ]);
      const [sweep, migration, scoped] = results;
      expect(sweep?.enqueued).toMatchObject({ deduped: false });
      expect(migration?.refusal?.code).toBe('X_BACKFILL_MIGRATION_PENDING');
      expect(migration?.enqueued).toBeNull();
      expect(scoped?.error).not.toBeNull(); // scoped: it needs --input
      expect(await queued(own.driver, 'cli-sweep-orgs')).toBe(1);

      const applied = await own.cli(['backfill', '--all', '--write', '--module', MODULE, '--json'], {
        env: { FIXTURE_APPLIED: '20261201_add_slug' },
      });
      const second = applied.json<BackfillSweepJson>().results;
      // No worker ran: the sweep has no ledger row, so --all lists it again and the enqueue is
      // the live pass it queued before.
      expect(second.find((view) => view.name === 'cli-sweep-orgs')?.enqueued).toMatchObject({
        deduped: true,
      });
      expect(second.find((view) => view.name === 'cli-needs-migration')?.enqueued).toMatchObject({
        deduped: false,
      });

      const perOrg = await own.cli([
        'backfill',
        'cli-per-org',
        '--input',
        '{"orgId":"acme"}',
        '--write',
        '--module',
        MODULE,
        '--json',
      ]);
      expect(perOrg.code, perOrg.stderr).toBe(0);
      expect(perOrg.json<BackfillSweepJson>().results[0]).toMatchObject({
        ledgerName: 'cli-per-org:acme',
        enqueued: { deduped: false },
      });
    } finally {
      await own.drop();
    }
  });

  it('bad arguments exit 2 with a usage line', async () => {
    const cases: string[][] = [
      ['backfill', '--module', MODULE],
      ['backfill', 'cli-sweep-orgs', '--all', '--module', MODULE],
      ['backfill', 'cli-sweep-orgs', '--force', '--module', MODULE],
      ['backfill', '--pending', '--input', '{}', '--module', MODULE],
      ['backfill', '--pending', '--write', '--module', MODULE],
      ['backfill', 'no-such-sweep', '--module', MODULE],
      ['backfill', '--list', '--status', 'bogus'],
      ['backfill', 'cli-per-org', '--input', '{not json', '--module', MODULE],
      ['backfill', '--pending'],
    ];
    for (const args of cases) {
      const run = await pg.cli([...args, '--json']);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.json<{ error: { code: string } }>().error.code).toBe('X_CLI_USAGE');
    }
  });
});
