import type { JobManifest } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/run-cli.js';

const APP = 'test-support/fixtures/app.mjs';

describe('x-jobs manifest: loading a --module', () => {
  it('registers the exports under their names and prints their declarations', async () => {
    const run = await runCli(['manifest', '--module', APP, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const manifest = run.json<JobManifest>();
    expect(manifest.jobs).toEqual([
      expect.objectContaining({
        kind: 'job',
        name: 'greet',
        queue: 'default',
        tenant: 'none',
        retry: expect.objectContaining({ attempts: 3 }),
      }),
    ]);
    expect(manifest.tasks).toEqual([
      expect.objectContaining({
        kind: 'task',
        name: 'nightlyGreeting',
        cron: '0 3 * * *',
        tz: 'America/Bogota',
        jobs: ['greet'],
      }),
    ]);

    const text = await runCli(['manifest', '--module', APP]);
    expect(text.stdout).toMatch(/^greet\s+default\s+0\s+3× exponential from 1\.0s/m);
    expect(text.stdout).toMatch(/^nightlyGreeting\s+0 3 \* \* \*\s+America\/Bogota\s+skip\s+greet$/m);
  });

  it('answers a missing --module (or file) with exit 2, and a module that fails to load with exit 1', async () => {
    const missingFlag = await runCli(['manifest']);
    expect(missingFlag.code).toBe(2);
    expect(missingFlag.stderr).toContain("Required option '--module <file>' not specified");

    const missingFile = await runCli(['manifest', '--module', 'nope.mjs', '--json']);
    expect(missingFile.code).toBe(2);
    expect(missingFile.json<{ error: { code: string } }>().error.code).toBe('X_CLI_USAGE');

    const broken = await runCli(['manifest', '--module', 'test-support/fixtures/broken.mjs']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/X_CLI_MODULE_LOAD_FAILED: .*config missing: SMTP_URL/);

    const empty = await runCli(['manifest', '--module', 'test-support/fixtures/empty.mjs']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('X_CLI_MODULE_EMPTY');
  });

  it('loads a .ts module under tsx, and says so when run without it', async () => {
    const ts = 'test-support/fixtures/app.ts';
    const plain = await runCli(['manifest', '--module', ts, '--json']);
    expect(plain.code).toBe(1);
    expect(plain.json<{ error: { code: string; meta: { hint?: string } } }>().error).toMatchObject({
      code: 'X_CLI_MODULE_LOAD_FAILED',
      meta: { hint: expect.stringContaining('node --import tsx') },
    });

    const underTsx = await runCli(['manifest', '--module', ts, '--json'], { nodeArgs: ['--import', 'tsx'] });
    expect(underTsx.code, underTsx.stderr).toBe(0);
    expect(underTsx.json<JobManifest>().jobs.map((job) => job.name)).toEqual(['greetTs']);
  });
});
