import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LsJson } from '@x/jobs-dashboard';
import { LATEST_MIGRATION_VERSION } from '@x/jobs-driver-pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli, startCli } from '../../test-support/run-cli.js';
import type { MigrateJson } from './migrate.js';

const APP = path.resolve('test-support/fixtures/app.mjs');

// PGlite costs ~700 MB and 2-4 s per process (20 s for a first initdb on a loaded machine): these
// runs share one data directory, one at a time.
describe('x-jobs on PGlite: migrate, worker --once, ls, and the dev loop', { timeout: 180_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'x-jobs-cli-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('migrates the default ./.x-jobs data directory, then a worker runs a job in it', async () => {
    const migrate = await runCli(['migrate', '--json'], { cwd: dir });
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.json<MigrateJson>()).toMatchObject({
      backend: 'pglite',
      version: LATEST_MIGRATION_VERSION,
    });

    const worker = await runCli(['worker', '--module', APP, '--once'], {
      cwd: dir,
      env: { FIXTURE_SEED: 'ada' },
    });
    expect(worker.code, worker.stderr).toBe(0);
    expect(worker.stdout).toContain('x-jobs worker on pglite at .x-jobs: 1 job, 1 task');
    expect(worker.stdout).toContain('ran 1 due job');

    const ls = await runCli(['ls', '--json', '--data-dir', path.join(dir, '.x-jobs')]);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.json<LsJson>().queues).toEqual([
      expect.objectContaining({ queue: 'default', counts: expect.objectContaining({ done: 1 }) }),
    ]);
  });

  it('dev prints every step as it runs, holds the directory against a second process, and stops on Ctrl-C', async () => {
    const dev = startCli(['dev', '--module', APP], { cwd: dir, env: { FIXTURE_SEED: 'grace' } });
    await dev.waitFor(/greet \S+ step deliver/);
    expect(dev.stdout()).toMatch(/→ greet \S+ step compose/);
    expect(dev.stdout()).toContain('x-jobs dev on pglite at .x-jobs');

    const locked = await runCli(['ls', '--json'], { cwd: dir });
    expect(locked.code).toBe(1);
    expect(locked.json<{ error: { code: string } }>().error.code).toBe('X_PGLITE_LOCKED');

    dev.child.kill('SIGINT');
    const result = await dev.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('SIGINT: stopping');
    expect(result.stdout).toContain('worker stopped');
  });
});

describe('x-jobs dev: the outbox relay', () => {
  it("publishes what the module's boot committed through its outbox, and nothing it rolled back", async () => {
    const dev = startCli([
      'dev',
      '--module',
      'test-support/fixtures/outbox-app.mjs',
      '--driver',
      'memory',
      '--json',
    ]);
    await dev.waitFor('"step":"record-committed"');
    dev.child.kill('SIGTERM');
    const result = await dev.done;
    expect(result.code, result.stderr).toBe(0);
    const steps = jsonLines(result.stdout)
      .filter((line) => line.event === 'x-jobs.step.executed')
      .map((line) => line.step);
    expect(steps).toEqual(['record-committed']);
  });
});
