import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisServerProcess } from '../test/redis-server-process.js';
import { REDIS_SCRIPTS, type RedisJobDriver, redisJobDriver } from './index.js';

// Its own server: SCRIPT FLUSH here must not touch the shared Redis other tests use.
let server: RedisServerProcess;
let admin: Redis;
let driver: RedisJobDriver;
beforeAll(async () => {
  server = await RedisServerProcess.launch();
  admin = new Redis(server.url);
  driver = redisJobDriver({ url: server.url, prefix: 'scripts' });
});
afterAll(async () => {
  await driver?.close();
  admin?.disconnect();
  await server?.destroy();
});

const shas = Object.values(REDIS_SCRIPTS).map((script) => script.sha);
const cached = async () =>
  ((await admin.script('EXISTS', ...shas)) as number[]).every((exists) => exists === 1);

it('loads every script once the connection is ready, then calls them by SHA', async () => {
  const deadline = Date.now() + 5000;
  while (!(await cached()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await cached()).toBe(true);
  await admin.config('RESETSTAT');
  await driver.enqueue({
    id: 'a',
    runId: 'ra',
    name: 'n',
    queue: 'q',
    payload: null,
    tenantId: null,
    idempotencyKey: 'k',
    priority: 0,
    maxAttempts: 1,
  });
  const stats = await admin.info('commandstats');
  expect(stats).toMatch(/cmdstat_evalsha:calls=1,/);
  expect(stats).not.toMatch(/cmdstat_eval:/);
});

it('falls back to EVAL after the server lost its script cache (NOSCRIPT), caching it again', async () => {
  await admin.script('FLUSH');
  const result = await driver.enqueue({
    id: 'b',
    runId: 'rb',
    name: 'n',
    queue: 'q',
    payload: null,
    tenantId: null,
    idempotencyKey: 'k2',
    priority: 0,
    maxAttempts: 1,
  });
  expect(result).toEqual({ id: 'b', runId: 'rb', deduped: false });
  expect(await admin.script('EXISTS', REDIS_SCRIPTS.enqueue.sha)).toEqual([1]);
});
