import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne, sleep, unavailable } from '../../test/run-one.js';
import { job } from '../declare/job.js';
import { errorCode } from '../errors/jobs-error.js';
import { overlapsStart } from './attempt-start.js';

let names = 0;
function probe(fake: FakeJobDriver, run: (signal: AbortSignal) => unknown = () => 'ok') {
  return job({
    name: `start-${++names}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    retry: { attempts: 3 },
    run: ({ ctx }) => {
      fake.calls.push('body');
      return run(ctx.signal);
    },
  });
}

/** A start held until `release()`; it then lands on the fake, or answers `false` without landing. */
function heldStart(fake: FakeJobDriver, answer?: boolean): { release: () => void } {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  fake.wrap('start', async (next) => {
    await gate;
    fake.calls.push('start-landed');
    // A start answering false counts nothing (as a driver whose claim lost the row).
    return answer === false ? false : next();
  });
  return { release };
}

describe('overlapsStart: which bodies run while their start is in flight', () => {
  const claim = { attempt: 1, lapsed: false } as const;
  it.each([
    [{ ...claim }, true],
    [{ ...claim, attempt: 2 }, false],
    [{ ...claim, lapsed: true }, false],
    [{ attempt: 1 }, false],
  ])('%o → %s', (row, expected) => {
    expect(overlapsStart(row as Parameters<typeof overlapsStart>[0])).toBe(expected);
  });
});

describe('startAttempt: an overlapped start', () => {
  it('runs the first attempt of a fresh claim before its start lands, and acks only after it landed', async () => {
    const fake = new FakeJobDriver();
    const handle = probe(fake);
    const row = fake.add({ name: handle.name });
    const start = heldStart(fake);
    const { result } = runOne(fake, handle);
    await sleep(20);
    expect(fake.calls).toEqual([`claim:${row.id}`, `start:${row.id}`, 'body']);
    start.release();
    expect((await result).outcome).toBe('completed');
    expect(fake.calls).toEqual([
      `claim:${row.id}`,
      `start:${row.id}`,
      'body',
      'start-landed',
      `ack:${row.id}`,
    ]);
    expect(row).toMatchObject({ state: 'done', attempts: 1 });
  });

  it.each([
    ['a claim taken from a lapsed lease', { state: 'running', leaseExpiresAt: 0, token: 'old' }, false],
    ['a fresh first attempt when the worker awaits every start (awaitEveryStart)', {}, true],
  ] as const)('awaits the start of %s before the body', async (_what, rowFields, awaitEveryStart) => {
    const fake = new FakeJobDriver();
    const handle = probe(fake);
    const row = fake.add({ name: handle.name, ...rowFields });
    const start = heldStart(fake);
    const { result } = runOne(fake, handle, 1_000, { awaitEveryStart });
    await sleep(20);
    expect(fake.calls).toEqual([`claim:${row.id}`, `start:${row.id}`]);
    start.release();
    expect((await result).outcome).toBe('completed');
    expect(fake.calls).toEqual([
      `claim:${row.id}`,
      `start:${row.id}`,
      'start-landed',
      'body',
      `ack:${row.id}`,
    ]);
  });

  it('stops a running body with X_JOB_LEASE_LOST and settles nothing when the start answers false', async () => {
    const fake = new FakeJobDriver();
    let aborted: unknown;
    const handle = probe(
      fake,
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            resolve('late');
          });
        }),
    );
    const row = fake.add({ name: handle.name });
    const start = heldStart(fake, false);
    const { result } = runOne(fake, handle);
    await sleep(20);
    expect(fake.calls).toContain('body');
    start.release();
    expect((await result).outcome).toBe('lease-lost');
    expect(errorCode(aborted)).toBe('X_JOB_LEASE_LOST');
    expect(fake.calls.filter((call) => call.startsWith('ack') || call.startsWith('nack'))).toEqual([]);
    expect(row).toMatchObject({ state: 'running', attempts: 0 });
  });

  it('counts the attempt before the ack when the overlapped start threw', async () => {
    const fake = new FakeJobDriver();
    const handle = probe(fake);
    const row = fake.add({ name: handle.name });
    let starts = 0;
    fake.wrap('start', async (next) => {
      starts += 1;
      if (starts === 1) throw unavailable();
      return next();
    });
    const { result } = runOne(fake, handle);
    expect((await result).outcome).toBe('completed');
    expect(fake.calls).toEqual([
      `claim:${row.id}`,
      `start:${row.id}`,
      'body',
      `start:${row.id}`,
      `ack:${row.id}`,
    ]);
    expect(row).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('does not wait forever for a start that hangs: once the lease lapses, the settle goes ahead', async () => {
    const fake = new FakeJobDriver();
    const handle = probe(fake);
    const row = fake.add({ name: handle.name });
    fake.wrap('start', () => new Promise<boolean>(() => {}));
    fake.wrap('heartbeat', () => new Promise<boolean>(() => {}));
    const { result } = runOne(fake, handle, 300);
    // A lapsed window (nothing refused) still lets a finished body's fenced ack try to land.
    expect((await result).outcome).toBe('completed');
    expect(fake.calls.filter((call) => !call.startsWith('heartbeat'))).toEqual([
      `claim:${row.id}`,
      `start:${row.id}`,
      'body',
      `ack:${row.id}`,
    ]);
    expect(row.state).toBe('done');
  });
});
