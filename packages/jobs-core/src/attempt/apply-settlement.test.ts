import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne, sleep, unavailable } from '../../test/run-one.js';
import { job } from '../declare/job.js';

/** A job that counts its runs and returns `result`. */
function counted(result: unknown = 'ok') {
  const runs = { count: 0 };
  const handle = job({
    name: `settle-${Math.random().toString(36).slice(2)}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    run: () => {
      runs.count += 1;
      return result;
    },
  });
  return { handle, runs };
}

/** Claims what is due every 25 ms while `until` is pending: a second worker waiting for a lapsed lease. */
async function rivalClaims(fake: FakeJobDriver, windowMs: number, until: Promise<unknown>): Promise<number> {
  let claims = 0;
  let done = false;
  void until.finally(() => {
    done = true;
  });
  while (!done) {
    claims += fake.claimNow(10, windowMs, 'rival').length;
    await sleep(25);
  }
  return claims;
}

describe('apply settlement: a finished body is settled once, and never run again', () => {
  it('keeps renewing the lease while a slow ack (three windows) is in flight: no rival claims the row', async () => {
    const windowMs = 300;
    const fake = new FakeJobDriver();
    const { handle, runs } = counted();
    const row = fake.add({ name: handle.name });
    fake.wrap('ack', async (next) => {
      await sleep(windowMs * 3);
      return next();
    });
    const { result } = runOne(fake, handle, windowMs);
    const rival = await rivalClaims(fake, windowMs, result);
    expect((await result).outcome).toBe('completed');
    expect(rival).toBe(0);
    expect(row.state).toBe('done');
    expect(runs.count).toBe(1);
    // Renewal went on while the ack was in flight, and stopped once it landed.
    const ack = fake.calls.indexOf(`ack:${row.id}`);
    expect(fake.calls.slice(ack).filter((call) => call.startsWith('heartbeat')).length).toBeGreaterThan(2);
  });

  it('retries the ack through a multi-second outage (renewals failing too) until it lands', async () => {
    const windowMs = 4_000;
    const outageMs = 2_500;
    const fake = new FakeJobDriver();
    const { handle, runs } = counted();
    const row = fake.add({ name: handle.name });
    let healAt = Number.POSITIVE_INFINITY;
    const down = async (next: () => Promise<boolean>) => {
      if (performance.now() < healAt) throw unavailable();
      return next();
    };
    fake.wrap('ack', async (next) => {
      if (healAt === Number.POSITIVE_INFINITY) healAt = performance.now() + outageMs; // the outage starts with the first ack
      return down(next);
    });
    fake.wrap('heartbeat', down);
    const { result, logger } = runOne(fake, handle, windowMs, { heartbeatIntervalMs: 500 });
    expect(await result).toEqual({ outcome: 'completed', code: null });
    expect(row.state).toBe('done');
    expect(runs.count).toBe(1);
    expect(fake.calls.filter((call) => call.startsWith('ack')).length).toBeGreaterThan(3);
    expect(logger.events.map((event) => event.event)).not.toContain('jobs.settle.failed');
  });

  it('dead-letters the row with the refusal code when the backend refuses to store the result: the body ran once', async () => {
    const fake = new FakeJobDriver();
    const { handle, runs } = counted('a value this backend refuses');
    const row = fake.add({ name: handle.name });
    fake.wrap('ack', async () => {
      throw Object.assign(new Error('invalid byte sequence'), { code: 'X_DRIVER_VALUE_REFUSED' });
    });
    const { result } = runOne(fake, handle);
    expect(await result).toEqual({ outcome: 'dead', code: 'X_DRIVER_VALUE_REFUSED' });
    expect(row.state).toBe('dead');
    expect(row.lastError?.code).toBe('X_DRIVER_VALUE_REFUSED');
    expect(row.stopReason).toBe('terminal');
    await sleep(1_200); // a lease lapse (1 s) would let a rival run it again
    expect(fake.claimNow(10, 1_000, 'rival')).toEqual([]);
    expect(runs.count).toBe(1);
  });

  it('dead-letters a result no driver stores exactly (U+0000) before any ack: X_JOB_OUTPUT_UNSTORABLE, the body ran once', async () => {
    const fake = new FakeJobDriver();
    const { handle, runs } = counted({ note: 'bad\u0000value' });
    const row = fake.add({ name: handle.name });
    let acks = 0;
    fake.wrap('ack', async () => {
      acks += 1;
      return true;
    });
    const { result } = runOne(fake, handle);
    expect(await result).toEqual({ outcome: 'dead', code: 'X_JOB_OUTPUT_UNSTORABLE' });
    expect(acks, 'the value never reached the driver').toBe(0);
    expect(row.state).toBe('dead');
    expect(row.lastError?.code).toBe('X_JOB_OUTPUT_UNSTORABLE');
    expect(row.stopReason).toBe('terminal');
    expect(runs.count).toBe(1);
  });

  it('gives up (settle-failed, logged) once the lease lapsed with the backend still unreachable', async () => {
    const fake = new FakeJobDriver();
    const { handle } = counted();
    fake.add({ name: handle.name });
    fake.wrap('ack', async () => {
      throw unavailable();
    });
    fake.wrap('heartbeat', async () => {
      throw unavailable();
    });
    const { result, logger } = runOne(fake, handle, 400);
    expect(await result).toEqual({ outcome: 'settle-failed', code: 'X_DRIVER_UNAVAILABLE' });
    expect(logger.events.filter((event) => event.event === 'jobs.settle.failed')).toHaveLength(1);
  });
});
