import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne, sleep, unavailable } from '../../test/run-one.js';
import { job } from '../declare/job.js';
import { errorCode } from '../errors/jobs-error.js';

const WINDOW_MS = 600;

/** A job whose body waits for its signal (at most 5 s) and reports when and why it was aborted. */
function signalWatcher() {
  const seen: { afterMs: number; code: string | undefined }[] = [];
  const handle = job({
    name: `watch-${Math.random().toString(36).slice(2)}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    async run({ ctx }) {
      const began = performance.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      seen.push({ afterMs: performance.now() - began, code: errorCode(ctx.signal.reason) });
      if (ctx.signal.aborted) throw ctx.signal.reason;
    },
  });
  return { handle, seen };
}

describe('lease keeper: a lost lease stops the body within about one window', () => {
  it('aborts ctx.signal with X_JOB_LEASE_LOST when renewals throw for a whole window (a partition), and logs jobs.lease.lost once', async () => {
    const fake = new FakeJobDriver();
    const { handle, seen } = signalWatcher();
    fake.add({ name: handle.name });
    fake.wrap('heartbeat', async () => {
      throw unavailable();
    });
    const { result, logger } = runOne(fake, handle, WINDOW_MS);
    expect((await result).outcome).toBe('lease-lost');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.code).toBe('X_JOB_LEASE_LOST');
    // About one window: not before it, and well before the body's own 5 s (slack for a loaded machine).
    expect(seen[0]?.afterMs).toBeGreaterThanOrEqual(WINDOW_MS * 0.8);
    expect(seen[0]?.afterMs).toBeLessThan(WINDOW_MS * 4);
    await sleep(WINDOW_MS);
    expect(logger.events.filter((event) => event.event === 'jobs.lease.lost')).toHaveLength(1);
    expect(logger.events.some((event) => event.event === 'jobs.heartbeat.failed')).toBe(true);
  });

  it('aborts ctx.signal just the same when renewals hang, and logs jobs.lease.lost once', async () => {
    const fake = new FakeJobDriver();
    const { handle, seen } = signalWatcher();
    const row = fake.add({ name: handle.name });
    fake.wrap('heartbeat', () => new Promise<boolean>(() => undefined));
    const { result, logger } = runOne(fake, handle, WINDOW_MS);
    expect((await result).outcome).toBe('lease-lost');
    expect(seen[0]?.code).toBe('X_JOB_LEASE_LOST');
    expect(seen[0]?.afterMs).toBeLessThan(WINDOW_MS * 4);
    await sleep(WINDOW_MS);
    expect(logger.events.filter((event) => event.event === 'jobs.lease.lost')).toHaveLength(1);
    // Nothing was settled: the row is left to lapse, as a crashed worker's would be.
    expect(fake.calls.filter((call) => call.startsWith('ack') || call.startsWith('nack'))).toEqual([]);
    expect(row.state).toBe('running');
  });

  it('aborts at once, without waiting for the window, when a renewal is refused', async () => {
    const fake = new FakeJobDriver();
    const { handle, seen } = signalWatcher();
    fake.add({ name: handle.name });
    fake.wrap('heartbeat', async () => false);
    const { result } = runOne(fake, handle, WINDOW_MS);
    expect((await result).outcome).toBe('lease-lost');
    expect(seen[0]?.code).toBe('X_JOB_LEASE_LOST');
    expect(seen[0]?.afterMs).toBeLessThan(WINDOW_MS * 2);
  });
});
