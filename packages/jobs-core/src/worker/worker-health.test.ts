import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { job } from '../declare/job.js';
import type { ClaimOptions } from '../driver/claim.js';
import { coreError } from '../errors/core-error.js';
import { silentLogger } from '../telemetry/logger.js';
import { createWorker } from './create-worker.js';
import { healthHandler } from './health-handler.js';
import type { WorkerHealth } from './worker-health.js';

/** Polls `read` until `done` holds (generous bound: a loaded machine must not fail this). */
async function until<T>(read: () => T, done: (value: T) => boolean, boundMs = 10_000): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${boundMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A worker over the fake driver whose claims `mode` steers: answer, fail, or never return. */
function steeredWorker(options: { heartbeatIntervalMs?: number } = {}) {
  const fake = new FakeJobDriver();
  let mode: 'answer' | 'fail' | 'hang' = 'answer';
  const driver = {
    ...fake.driver,
    claim: (claim: ClaimOptions) => {
      if (mode === 'hang') return new Promise<never>(() => {});
      if (mode === 'fail') return Promise.reject(coreError('X_DRIVER_UNAVAILABLE', 'down'));
      return fake.driver.claim(claim);
    },
  };
  const worker = createWorker({
    driver,
    context: () => ({}),
    registry: new Map(),
    queues: ['q'],
    idlePollMaxMs: 20,
    healthStallMs: 400,
    visibilityTimeoutMs: 2_000,
    handleSignals: false,
    logger: silentLogger,
    ...options,
  });
  const steer = (next: typeof mode) => {
    mode = next;
  };
  return { fake, worker, steer };
}

describe('worker.health()', () => {
  it('is live but not ready before start, ready once a claim lands, and neither once stopped', async () => {
    const { worker } = steeredWorker();
    expect(worker.health()).toMatchObject({ live: true, ready: false, backend: 'unknown', state: 'idle' });
    await worker.start();
    const ready = await until(
      () => worker.health(),
      (h) => h.ready,
    );
    expect(ready).toMatchObject({ live: true, backend: 'reachable', renewals: 'ok', reasons: [] });
    expect(ready.lastClaimAt).toBeGreaterThan(0);
    await worker.stop();
    expect(worker.health()).toMatchObject({ live: false, ready: false, state: 'stopped' });
  });

  it('a stalled claim loop (a claim that never returns) is not live within healthStallMs', async () => {
    const { worker, steer } = steeredWorker();
    await worker.start();
    await until(
      () => worker.health(),
      (h) => h.ready,
    );
    steer('hang');
    const stalled = await until(
      () => worker.health(),
      (h) => !h.live,
    );
    expect(stalled.ready).toBe(false);
    expect(stalled.sinceLoopMs).toBeGreaterThan(stalled.stallMs);
    expect(stalled.reasons.join()).toContain('has not come round');
    void worker.stop(); // the hung claim never returns: nothing to await
  });

  it('failing claims make it unready but live, and it is ready again once a claim lands', async () => {
    const { worker, steer } = steeredWorker();
    await worker.start();
    await until(
      () => worker.health(),
      (h) => h.ready,
    );
    steer('fail');
    const down = await until(
      () => worker.health(),
      (h) => !h.ready,
    );
    expect(down).toMatchObject({ live: true, backend: 'unreachable', backendError: 'X_DRIVER_UNAVAILABLE' });
    steer('answer');
    await until(
      () => worker.health(),
      (h) => h.ready,
    );
    await worker.stop();
  });

  it('a failing lease renewal makes it unready for a lease window', async () => {
    const { fake, worker } = steeredWorker({ heartbeatIntervalMs: 20 });
    let release: () => void = () => {};
    const slow = job({
      name: `health-slow-${Math.random().toString(36).slice(2)}`,
      queue: 'q',
      input: z.object({}),
      idempotencyKey: () => 'k',
      tenant: 'none',
      run: () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    });
    const slowWorker = createWorker({
      driver: fake.driver,
      context: () => ({}),
      registry: new Map([[slow.name, slow]]),
      queues: ['q'],
      idlePollMaxMs: 20,
      heartbeatIntervalMs: 20,
      visibilityTimeoutMs: 2_000,
      handleSignals: false,
      logger: silentLogger,
    });
    fake.add({ name: slow.name, queue: 'q' });
    fake.wrap('heartbeat', async () => {
      throw coreError('X_DRIVER_UNAVAILABLE', 'renewal refused');
    });
    await slowWorker.start();
    const failing = await until(
      () => slowWorker.health(),
      (h) => h.renewals === 'failing',
    );
    expect(failing.ready).toBe(false);
    expect(failing.reasons.join()).toContain('renewal');
    release();
    await slowWorker.stop();
    await worker.stop();
  });
});

describe('healthHandler (node:http)', () => {
  it('answers /livez and /readyz with 200 or 503 and the health as JSON, 404 elsewhere', async () => {
    const { worker, steer } = steeredWorker();
    await worker.start();
    await until(
      () => worker.health(),
      (h) => h.ready,
    );
    const server = createServer(healthHandler(worker));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const live = await fetch(`${base}/livez`);
      expect(live.status).toBe(200);
      expect(((await live.json()) as WorkerHealth).live).toBe(true);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      steer('fail');
      await until(
        () => worker.health(),
        (h) => !h.ready,
      );
      const unready = await fetch(`${base}/readyz`);
      expect(unready.status).toBe(503);
      expect(((await unready.json()) as WorkerHealth).backend).toBe('unreachable');
      expect((await fetch(`${base}/livez`)).status).toBe(200);
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      expect((await fetch(`${base}/readyz`, { method: 'POST' })).status).toBe(405);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await worker.stop();
    }
  });
});
