import { expectHealthAcrossRestart } from '@x/jobs-conformance';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type RedisJobDriver, redisJobDriver } from '../src/redis-job-driver.js';
import { RedisServerProcess } from './redis-server-process.js';

// A worker under which its redis-server restarts (SHUTDOWN, then start with its AOF): readiness
// drops at the next claim (refused at once: no offline queue), liveness holds, and both come back
// by themselves, with jobs running again.
describe('worker.health() across a restart of its redis-server', { timeout: 180_000 }, () => {
  let server: RedisServerProcess;
  let driver: RedisJobDriver;
  beforeAll(async () => {
    server = await RedisServerProcess.launch();
    driver = redisJobDriver({ url: server.url });
  });
  afterAll(async () => {
    await driver?.close();
    await server?.destroy();
  });

  it('ready, then unready while the server is down (live throughout), then ready and consuming again', async () => {
    await expectHealthAcrossRestart({
      driver,
      stopServer: () => server.stop(),
      startServer: () => server.start(),
    });
  });
});
