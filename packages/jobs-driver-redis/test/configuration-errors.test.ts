import { readyFailure } from '@x/jobs-conformance';
import { createWorker, isConfigurationError, silentLogger } from '@x/jobs-core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisJobDriver } from '../src/redis-job-driver.js';
import { RedisServerProcess } from './redis-server-process.js';

const PASSWORD = 'x-jobs-test-secret';

// Against a redis-server of this test's own that requires a password: a misconfiguration is its
// own non-retryable code naming the setting, raised when the driver opens; an outage stays
// X_DRIVER_UNAVAILABLE.
describe('configuration errors at open (a real redis-server with requirepass)', { timeout: 60_000 }, () => {
  let server: RedisServerProcess;
  const at = (auth: string, path = '') => `redis://${auth}127.0.0.1:${server.port}${path}`;
  beforeAll(async () => {
    server = await RedisServerProcess.launch(['--save', '', '--appendonly', 'no']);
    const admin = new Redis(server.url);
    await admin.config('SET', 'requirepass', PASSWORD);
    admin.disconnect();
  });
  afterAll(() => server.destroy());

  it.each([
    ['a wrong password (WRONGPASS)', () => at(':wrong@'), 'X_DRIVER_AUTH_FAILED'],
    ['no password (NOAUTH)', () => at(''), 'X_DRIVER_AUTH_FAILED'],
    ['a db index out of range', () => at(`:${PASSWORD}@`, '/99'), 'X_DRIVER_DATABASE_MISSING'],
    [
      'a host name that does not resolve',
      () => 'redis://x-jobs-no-such-host.invalid:6379',
      'X_DRIVER_HOST_UNKNOWN',
    ],
  ])('%s: %s from ready(), not retryable, meta.setting url', async (_label, url, code) => {
    const error = await readyFailure(redisJobDriver({ url: url(), allowEviction: true }));
    expect(isConfigurationError(error)).toBe(true);
    expect(error).toMatchObject({ code, meta: { retryable: false, setting: 'url' } });
    expect((error as Error).message).not.toContain(PASSWORD);
  });

  it('the right password opens', async () => {
    expect(
      await readyFailure(redisJobDriver({ url: at(`:${PASSWORD}@`), allowEviction: true })),
    ).toBeUndefined();
  });

  it.each([
    ['not a URL', 'not a url'],
    ['another scheme', 'http://127.0.0.1:6379'],
    ['a port that is not a number', 'redis://127.0.0.1:port'],
    ['a database that is not a number', 'redis://127.0.0.1:6379/cache'],
  ])('a malformed URL (%s) is X_DRIVER_URL_INVALID at the factory', (_label, url) => {
    expect(() => redisJobDriver({ url })).toThrow(
      expect.objectContaining({
        code: 'X_DRIVER_URL_INVALID',
        meta: expect.objectContaining({ setting: 'url' }),
      }),
    );
  });

  it('worker.start() refuses a wrong password with its code; a stopped server is an outage it starts through', async () => {
    const wrong = redisJobDriver({ url: at(':wrong@'), allowEviction: true });
    const worker = createWorker({
      driver: wrong,
      context: () => ({}),
      handleSignals: false,
      logger: silentLogger,
      queues: ['q'],
    });
    await expect(worker.start()).rejects.toMatchObject({ code: 'X_DRIVER_AUTH_FAILED' });
    await wrong.close();

    const down = redisJobDriver({ url: 'redis://127.0.0.1:7318', allowEviction: true });
    expect(await readyFailure(down)).toMatchObject({ code: 'X_DRIVER_UNAVAILABLE' });
  });
});
