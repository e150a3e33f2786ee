import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { job } from '../declare/job.js';
import { recordingLogger } from '../telemetry/logger.js';
import { createWorker } from './create-worker.js';

// Fake time (Date, performance and every timer): the claim times are exact, whatever the load.
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A worker over three ready rows of one tenant, two starts a second in this process. */
async function limitedWorker() {
  const fake = new FakeJobDriver();
  const startedAt: number[] = [];
  const releases: (() => void)[] = [];
  const handle = job({
    name: `deferred-${Math.random().toString(36).slice(2)}`,
    queue: 'q',
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    run: () => {
      startedAt.push(Date.now());
      return new Promise<void>((resolve) => releases.push(resolve));
    },
  });
  for (let n = 0; n < 3; n += 1) fake.add({ name: handle.name, tenantId: 'acme' });
  const worker = createWorker({
    driver: fake.driver,
    context: () => ({}),
    registry: { get: (name) => (name === handle.name ? handle : undefined) },
    queues: ['q'],
    concurrency: 4,
    idlePollMaxMs: 5_000,
    limits: { ratePerTenant: { limit: 2, per: '1s' } },
    handleSignals: false,
    logger: recordingLogger(),
  });
  const began = Date.now();
  await worker.start();
  const stop = async () => {
    for (const release of releases.splice(0)) release();
    const stopping = worker.stop();
    await vi.advanceTimersByTimeAsync(10);
    await stopping;
  };
  return { began, startedAt, stop };
}

describe('a worker claims a row it deferred at the row’s run time', () => {
  it('claims the hand-back of a process rate limit when it comes due, not at the idle poll', async () => {
    const { began, startedAt, stop } = await limitedWorker();
    await vi.advanceTimersByTimeAsync(100);
    expect(startedAt.map((at) => at - began)).toEqual([0, 0]);
    // The third was handed back to run at +1 s; the busy pool's wait (5 s) ends then.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(startedAt).toHaveLength(3);
    expect(startedAt[2]! - began).toBeGreaterThanOrEqual(1_000);
    expect(startedAt[2]! - began).toBeLessThan(1_100);
    await stop();
    expect(vi.getTimerCount(), 'every timer of the worker is cleared at stop').toBe(0);
  });

  it('clears the timer of a deferral still pending when the worker stops', async () => {
    const { startedAt, stop } = await limitedWorker();
    await vi.advanceTimersByTimeAsync(100);
    expect(startedAt).toHaveLength(2); // the third waits for +1 s
    await stop();
    expect(vi.getTimerCount(), 'no timer is left for the pending deferral').toBe(0);
  });
});
