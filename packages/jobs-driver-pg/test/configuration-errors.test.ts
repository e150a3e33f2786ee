import { randomBytes } from 'node:crypto';
import { readyFailure } from '@x/jobs-conformance';
import { createWorker, isConfigurationError, silentLogger } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { postgresJobDriver } from '../src/postgres-job-driver.js';
import { DATABASE_URL } from './database-url.js';

/** DATABASE_URL with some parts changed. */
function urlWith(parts: Partial<Pick<URL, 'pathname' | 'username' | 'hostname' | 'port'>>): string {
  return Object.assign(new URL(DATABASE_URL), parts).href;
}

// Against the real server: a misconfiguration is its own non-retryable code naming the setting,
// raised when the driver opens; an outage stays X_DRIVER_UNAVAILABLE, retryable.
describe('configuration errors at open (real PostgreSQL)', { timeout: 60_000 }, () => {
  it.each([
    [
      'a database that does not exist',
      urlWith({ pathname: `/x_jobs_none_${randomBytes(4).toString('hex')}` }),
      'X_DRIVER_DATABASE_MISSING',
      '3D000',
    ],
    [
      'a role that does not exist',
      urlWith({ username: `x_jobs_nobody_${randomBytes(4).toString('hex')}` }),
      'X_DRIVER_AUTH_FAILED',
      '28000',
    ],
    [
      'a host name that does not resolve',
      urlWith({ hostname: 'x-jobs-no-such-host.invalid' }),
      'X_DRIVER_HOST_UNKNOWN',
      undefined,
    ],
  ])(
    '%s: %s from ready(), not retryable, meta.setting connectionString',
    async (_label, url, code, sqlstate) => {
      const error = await readyFailure(postgresJobDriver({ connectionString: url }, { wake: false }));
      expect(isConfigurationError(error)).toBe(true);
      expect(error).toMatchObject({ code, meta: { retryable: false, setting: 'connectionString' } });
      if (sqlstate !== undefined) expect(error).toMatchObject({ meta: { sqlstate } });
    },
  );

  it.each([
    ['not a URL', 'not a url'],
    ['another scheme', 'mysql://root@127.0.0.1:3306/app'],
    ['a port that is not a number', 'postgres://postgres@127.0.0.1:port/postgres'],
  ])('a malformed URL (%s) is X_DRIVER_URL_INVALID at the factory, never echoed', (_label, url) => {
    let thrown: unknown;
    try {
      postgresJobDriver({ connectionString: url });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'X_DRIVER_URL_INVALID', meta: { retryable: false } });
    expect((thrown as Error).message).not.toContain(url);
  });

  it('a port nobody listens on is an outage: X_DRIVER_UNAVAILABLE, retryable', async () => {
    const error = await readyFailure(
      postgresJobDriver({ connectionString: urlWith({ port: '7319' }) }, { wake: false }),
    );
    expect(error).toMatchObject({ code: 'X_DRIVER_UNAVAILABLE', meta: { retryable: true } });
  });

  it('worker.start() refuses a misconfigured driver with its code, and starts on an outage', async () => {
    const missing = postgresJobDriver(
      { connectionString: urlWith({ pathname: '/x_jobs_none_at_all' }) },
      { wake: false },
    );
    const worker = createWorker({
      driver: missing,
      context: () => ({}),
      handleSignals: false,
      logger: silentLogger,
      queues: ['q'],
    });
    await expect(worker.start()).rejects.toMatchObject({ code: 'X_DRIVER_DATABASE_MISSING' });
    expect(worker.stats().state).toBe('idle');
    await missing.close();

    const down = postgresJobDriver({ connectionString: urlWith({ port: '7319' }) }, { wake: false });
    const patient = createWorker({
      driver: down,
      context: () => ({}),
      handleSignals: false,
      logger: silentLogger,
      queues: ['q'],
    });
    await patient.start();
    expect(patient.stats().state).toBe('running');
    await patient.stop();
    await down.close();
  });
});
