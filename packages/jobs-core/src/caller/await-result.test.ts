import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { setJobDriver } from '../ambient/driver-slot.js';
import { job } from '../declare/job.js';
import type { JobDriver } from '../driver/job-driver.js';
import type { SettledJobs } from '../driver/wake.js';
import { errorCode, isJobsError } from '../errors/jobs-error.js';
import { awaitResult } from './await-result.js';
import { cancelJob } from './cancel-job.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** A fake whose driver has a push wake and a settle wake the test fires by hand. */
function withWake(fake: FakeJobDriver): {
  driver: JobDriver;
  wake: (queue: string) => void;
  settled: (jobs: SettledJobs) => void;
} {
  const listeners = new Set<(queue: string) => void>();
  const settleListeners = new Set<(jobs: SettledJobs) => void>();
  const driver: JobDriver = {
    ...fake.driver,
    wake: {
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      subscribeSettled(listener) {
        settleListeners.add(listener);
        return () => settleListeners.delete(listener);
      },
    },
  };
  const wake = (queue: string): void => {
    for (const listener of listeners) listener(queue);
  };
  const settled = (jobs: SettledJobs): void => {
    for (const listener of settleListeners) listener(jobs);
  };
  return { driver, wake, settled };
}

/** The driver with its `introspect.get` calls counted. */
function counted(driver: JobDriver): { driver: JobDriver; reads: () => number } {
  let reads = 0;
  const get = driver.introspect!.get;
  const counting: JobDriver = {
    ...driver,
    introspect: {
      ...driver.introspect!,
      get: (id) => {
        reads += 1;
        return get(id);
      },
    },
  };
  return { driver: counting, reads: () => reads };
}

/** Holds every timer: no fallback poll can fire, so only a signal or a wake can end the wait. */
function noPolls(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

describe('awaitResult', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a done row, rejects a dead one with its code and a cancelled one with X_JOB_CANCELLED', async () => {
    const fake = new FakeJobDriver();
    const driver = fake.driver;
    const done = fake.add({ name: 'j', state: 'done', result: { ok: true } });
    const dead = fake.add({
      name: 'j',
      state: 'dead',
      lastError: { code: 'X_CARD_DECLINED', message: 'declined' },
      stopReason: 'terminal',
    });
    const cancelled = fake.add({ name: 'j', state: 'cancelled' });
    expect(await awaitResult(done.id, { driver })).toEqual({ ok: true });
    const deadError = await failure(awaitResult(dead.id, { driver }));
    expect(isJobsError(deadError, 'X_CARD_DECLINED')).toBe(true);
    expect((deadError as { meta: object }).meta).toEqual({ jobId: dead.id, stopReason: 'terminal' });
    expect(errorCode(await failure(awaitResult(cancelled.id, { driver })))).toBe('X_JOB_CANCELLED');
  });

  it('is woken at once by a settle in this process, with no poll in between', async () => {
    noPolls();
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const handle = job({
      name: `awaited-${Math.random().toString(36).slice(2)}`,
      input: z.object({}),
      idempotencyKey: () => 'k',
      tenant: 'none',
      run: async () => 'finished',
    });
    const row = fake.add({ name: handle.name });
    const awaited = awaitResult(row.id, { driver: fake.driver });
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve)); // first read done
    expect((await runOne(fake, handle).result).outcome).toBe('completed');
    expect(await awaited).toBe('finished');
  });

  it("is woken by the driver's wake for the row's queue, with no poll in between", async () => {
    noPolls();
    const fake = new FakeJobDriver();
    const { driver, wake } = withWake(fake);
    const row = fake.add({ name: 'j', queue: 'mail' });
    const { driver: counting, reads } = counted(driver);
    const awaited = awaitResult(row.id, { driver: counting });
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve)); // first read done, poll armed
    Object.assign(row, { state: 'done', result: 7 });
    wake('other-queue');
    wake('mail');
    expect(await awaited).toBe(7);
    expect(reads()).toBe(2);
  });

  it("is woken by the driver's settle wake naming the job (or a bare marker), with no poll in between", async () => {
    noPolls();
    const fake = new FakeJobDriver();
    const { driver, settled } = withWake(fake);
    const first = fake.add({ name: 'j' });
    const second = fake.add({ name: 'j' });
    const { driver: counting, reads } = counted(driver);
    const byId = awaitResult(first.id, { driver: counting });
    const byMarker = awaitResult(second.id, { driver: counting });
    while (vi.getTimerCount() < 2) await new Promise((resolve) => setImmediate(resolve)); // first reads done
    Object.assign(first, { state: 'done', result: 'one' });
    Object.assign(second, { state: 'done', result: 'two' });
    settled(['someone-else']);
    settled([first.id]);
    expect(await byId).toBe('one');
    expect(reads(), 'a wake naming another job reads nothing').toBe(3);
    settled(null);
    expect(await byMarker).toBe('two');
  });

  it('gives up with X_JOB_RESULT_TIMEOUT or X_JOB_RESULT_ABORTED and leaves the row alone', async () => {
    const fake = new FakeJobDriver();
    const driver = fake.driver;
    const row = fake.add({ name: 'j' });
    expect(errorCode(await failure(awaitResult(row.id, { driver, timeout: '20ms' })))).toBe(
      'X_JOB_RESULT_TIMEOUT',
    );
    const controller = new AbortController();
    const pending = failure(awaitResult(row.id, { driver, signal: controller.signal }));
    controller.abort(new Error('user left'));
    expect(errorCode(await pending)).toBe('X_JOB_RESULT_ABORTED');
    expect(errorCode(await failure(awaitResult(row.id, { driver, signal: AbortSignal.abort() })))).toBe(
      'X_JOB_RESULT_ABORTED',
    );
    expect(row.state).toBe('ready');
  });

  it('hears a cancelJob in this process', async () => {
    const fake = new FakeJobDriver();
    const row = fake.add({ name: 'j' });
    noPolls();
    const awaited = failure(awaitResult(row.id, { driver: fake.driver }));
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    await cancelJob(fake.driver, row.id);
    expect(errorCode(await awaited)).toBe('X_JOB_CANCELLED');
  });

  it('refuses a bad timeout with X_DURATION_INVALID and a driver without introspection', async () => {
    const fake = new FakeJobDriver();
    expect(errorCode(await failure(awaitResult('x', { driver: fake.driver, timeout: -1 })))).toBe(
      'X_DURATION_INVALID',
    );
    const { introspect: _dropped, ...bare } = fake.driver;
    expect(errorCode(await failure(awaitResult('x', { driver: bare })))).toBe(
      'X_DRIVER_INTROSPECTION_REQUIRED',
    );
  });
});
