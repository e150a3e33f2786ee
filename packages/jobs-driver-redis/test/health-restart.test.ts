import { enqueueAndAwaitDone, healthUntil } from '@x/jobs-conformance';
import { createWorker, job, silentLogger, type Worker } from '@x/jobs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RedisJobDriver, redisJobDriver } from '../src/redis-job-driver.js';
import { RedisServerProcess } from './redis-server-process.js';

const IDLE_POLL_MS = 200;

const ping = job({
  name: 'health-restart.redis-ping',
  input: z.object({ n: z.number() }),
  idempotencyKey: ({ n }) => `ping-${n}`,
  tenant: 'none',
  run: () => undefined,
});

// A worker under which its redis-server restarts: readiness drops within a bounded time (claims are
// refused at once, no offline queue: the worker's next claim, at most idlePollMaxMs later), liveness holds (the loop keeps
// coming round), and both come back by themselves once the server is up, with jobs running again.
describe('worker.health() across a restart of its redis-server', { timeout: 180_000 }, () => {
  let server: RedisServerProcess;
  let driver: RedisJobDriver;
  let worker: Worker;
  beforeAll(async () => {
    server = await RedisServerProcess.launch();
    driver = redisJobDriver({ url: server.url });
    worker = createWorker({
      driver,
      context: () => ({}),
      registry: new Map([[ping.name, ping]]),
      queues: ['default'],
      idlePollMaxMs: IDLE_POLL_MS,
      handleSignals: false,
      logger: silentLogger,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await driver?.close();
    await server?.destroy();
  });

  const runsOne = (n: number) => enqueueAndAwaitDone(driver, ping, { n });

  it('ready, then unready while the server is down (live throughout), then ready and consuming again', async () => {
    await worker.start();
    await healthUntil(worker, (h) => h.ready, 30_000);
    await runsOne(1);

    await server.stop();
    const down = await healthUntil(worker, (h) => !h.ready, 30_000);
    expect(down.health).toMatchObject({ live: true, backend: 'unreachable' });
    expect(down.health.backendError).toBe('X_DRIVER_UNAVAILABLE');
    // The documented bound: the next claim, at most idlePollMaxMs away, is refused at once (the
    // driver's client has no offline queue); 10 s covers a loaded machine.
    expect(down.afterMs).toBeLessThan(10_000);

    await server.start();
    const back = await healthUntil(worker, (h) => h.ready, 60_000);
    expect(back.health).toMatchObject({ live: true, backend: 'reachable', reasons: [] });
    await runsOne(2);
  });
});
