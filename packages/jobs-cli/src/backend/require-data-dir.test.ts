import { access, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/run-cli.js';

interface ErrorJson {
  readonly error: { readonly code: string; readonly meta: Record<string, unknown> };
}

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'x-jobs-no-data-dir-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('read commands on PGlite never create a database', () => {
  it.each([['ls'], ['dead'], ['show', 'job-1'], ['retry', 'job-1'], ['pause', 'default']])(
    'x-jobs %s without --data-dir is X_CLI_DATA_DIR_MISSING naming the flag, and ./.x-jobs stays absent',
    async (...args) => {
      const run = await runCli([...args, '--json'], { cwd });
      expect(run.code).toBe(1);
      const { error } = run.json<ErrorJson>();
      expect(error.code).toBe('X_CLI_DATA_DIR_MISSING');
      expect(error.meta).toMatchObject({ flag: '--data-dir', dataDir: join(cwd, '.x-jobs') });
      expect(await readdir(cwd)).toEqual([]);
    },
  );

  it('names the directory given with --data-dir when it is missing, and creates nothing', async () => {
    const run = await runCli(['ls', '--data-dir', 'elsewhere/db'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('X_CLI_DATA_DIR_MISSING');
    expect(run.stderr).toContain('--data-dir');
    await expect(access(join(cwd, 'elsewhere'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a --data-dir that is a file, not a directory', async () => {
    await writeFile(join(cwd, 'a-file'), 'not a database');
    const run = await runCli(['ls', '--data-dir', 'a-file', '--json'], { cwd });
    expect(run.code).toBe(1);
    expect(run.json<ErrorJson>().error.code).toBe('X_CLI_DATA_DIR_MISSING');
    await rm(join(cwd, 'a-file'));
  });
});
