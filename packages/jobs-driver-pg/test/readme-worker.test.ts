import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownCodeBlocks, runWorkerProcess } from '@x/jobs-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from './database-url.js';
import { adminQuery } from './scratch-schema.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const README = here('../README.md');
/** The worker's default `drainTimeoutMs`: SIGTERM must end the process within it. */
const DRAIN_TIMEOUT_MS = 10_000;

async function expectInReadme(example: string): Promise<void> {
  const text = await readFile(example, 'utf8');
  expect(await markdownCodeBlocks(README), `${example} is a code block of the README, as written`).toContain(
    text,
  );
}

// The README's worker examples, run as a user runs them: SIGTERM drains the worker, the example
// closes the driver, and nothing is left to keep the process alive.
describe('the README worker example exits by itself on SIGTERM', { timeout: 180_000 }, () => {
  const database = `x_jobs_exit_${randomBytes(4).toString('hex')}`;
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  beforeAll(() => adminQuery(`create database ${database}`));
  afterAll(() => adminQuery(`drop database if exists ${database} with (force)`));

  it('on PostgreSQL: exit code 0 within the drain timeout, the job run before the signal', async () => {
    const example = here('./readme-worker.example.ts');
    await expectInReadme(example);
    const exit = await runWorkerProcess(example, {
      env: { DATABASE_URL: url.href },
      readyText: 'welcome u1',
    });
    expect(exit.stderr).toContain('"jobs.worker.stopped"');
    expect({ code: exit.code, signal: exit.signal }, exit.stderr).toEqual({ code: 0, signal: null });
    expect(exit.exitMs).toBeLessThan(DRAIN_TIMEOUT_MS);
  });

  it('on PGlite: exit code 0 within the drain timeout, the lock file removed', async () => {
    const example = here('./readme-pglite-worker.example.ts');
    await expectInReadme(example);
    const cwd = await mkdtemp(join(tmpdir(), 'x-jobs-exit-'));
    try {
      const exit = await runWorkerProcess(example, { cwd, readyText: 'welcome u1' });
      expect(exit.stderr).toContain('"jobs.worker.stopped"');
      expect({ code: exit.code, signal: exit.signal }, exit.stderr).toEqual({ code: 0, signal: null });
      expect(exit.exitMs).toBeLessThan(DRAIN_TIMEOUT_MS);
      await expect(readFile(join(cwd, '.x-jobs/db/.x-jobs.lock'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
