import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { markdownCodeBlocks, runWorkerProcess } from '@x/jobs-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServerProcess } from './redis-server-process.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
/** The worker's default `drainTimeoutMs`: SIGTERM must end the process within it. */
const DRAIN_TIMEOUT_MS = 10_000;

// The README's worker example, run as a user runs it (on a redis-server of this test's own):
// SIGTERM drains the worker, the example closes the driver, and the process exits by itself.
describe('the README worker example exits by itself on SIGTERM', { timeout: 120_000 }, () => {
  let server: RedisServerProcess;
  beforeAll(async () => {
    server = await RedisServerProcess.launch();
  });
  afterAll(() => server.destroy());

  it('exit code 0 within the drain timeout, the job run before the signal', async () => {
    const example = here('./readme-worker.example.ts');
    const text = await readFile(example, 'utf8');
    expect(
      await markdownCodeBlocks(here('../README.md')),
      'the example is the README block, as written',
    ).toContain(text);
    const exit = await runWorkerProcess(example, {
      env: { REDIS_URL: server.url },
      readyText: 'welcome u-1',
    });
    expect(exit.stderr).toContain('"jobs.worker.stopped"');
    expect({ code: exit.code, signal: exit.signal }, exit.stderr).toEqual({ code: 0, signal: null });
    expect(exit.exitMs).toBeLessThan(DRAIN_TIMEOUT_MS);
  });
});
