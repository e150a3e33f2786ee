import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test-support/pg-fixture.js';
import { runCli } from '../../test-support/run-cli.js';

const APP = path.resolve('test-support/fixtures/app.mjs');
const missingDatabase = (() => {
  const url = new URL(DATABASE_URL);
  url.pathname = '/x_jobs_cli_no_such_database';
  return url.href;
})();

/** A loopback port nobody listens on right now. */
function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(),
      );
    });
  });
}

// A misconfigured backend is a failed command (exit 1) naming the configuration code and the
// setting, never a worker that starts "fine" and warns forever; an outage stays what it was.
describe('x-jobs given a misconfigured backend exits non-zero with the message', { timeout: 120_000 }, () => {
  it('ls on a PostgreSQL database that does not exist: exit 1, X_DRIVER_DATABASE_MISSING', async () => {
    const run = await runCli(['ls', '--json'], { env: { DATABASE_URL: missingDatabase } });
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain('X_DRIVER_DATABASE_MISSING');
  });

  it('worker on a PostgreSQL role that does not exist: exit 1, X_DRIVER_AUTH_FAILED, no claim loop', async () => {
    const url = new URL(DATABASE_URL);
    url.username = 'x_jobs_cli_nobody';
    const run = await runCli(['worker', '--module', APP], {
      env: { DATABASE_URL: url.href },
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain('X_DRIVER_AUTH_FAILED');
  });

  it('--data-dir typed wins over DATABASE_URL in the environment, and says so on one stderr line', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'x-jobs-cli-precedence-'));
    try {
      const run = await runCli(['ls', '--data-dir', path.join(dir, 'absent')], { env: { DATABASE_URL } });
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain('X_CLI_DATA_DIR_MISSING');
      const notes = run.stderr.split('\n').filter((line) => line.includes('wins over'));
      expect(notes).toEqual([
        'x-jobs: --data-dir on the command line wins over DATABASE_URL set in the environment (using pglite).',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('on a redis-server of its own with requirepass', () => {
    let server: ChildProcess;
    let port: number;
    beforeAll(async () => {
      port = await sparePort();
      server = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      const admin = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 50 });
      admin.on('error', () => {});
      await admin.config('SET', 'requirepass', 'cli-secret');
      admin.disconnect();
    });
    afterAll(() => void server.kill('SIGTERM'));

    it('ls with a wrong password: exit 1, X_DRIVER_AUTH_FAILED, the password never printed', async () => {
      const run = await runCli(['ls', '--redis-url', `redis://:wrong-pass@127.0.0.1:${port}`], {});
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain('X_DRIVER_AUTH_FAILED');
      expect(`${run.stdout}${run.stderr}`).not.toContain('wrong-pass');
    });

    it('a stopped server stays an outage: X_DRIVER_UNAVAILABLE', async () => {
      const run = await runCli(['ls', '--redis-url', `redis://127.0.0.1:${await sparePort()}`], {});
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain('X_DRIVER_UNAVAILABLE');
    });
  });
});
