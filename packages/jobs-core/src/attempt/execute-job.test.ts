import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { job } from '../declare/job.js';
import { coreError } from '../errors/core-error.js';

let names = 0;
function noop(fake: FakeJobDriver, run: () => unknown = () => 'ok', retry = 3) {
  const handle = job({
    name: `exec-${++names}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    retry: { attempts: retry },
    run: () => {
      fake.calls.push('body');
      return run();
    },
  });
  return handle;
}

describe('executeJob: an attempt counts when its body starts', () => {
  it('calls start right before the body, after admission, and acks once', async () => {
    const fake = new FakeJobDriver();
    const handle = noop(fake);
    const row = fake.add({ name: handle.name });
    const { result } = runOne(fake, handle);
    expect((await result).outcome).toBe('completed');
    expect(fake.calls).toEqual([`claim:${row.id}`, `start:${row.id}`, 'body', `ack:${row.id}`]);
    expect(row.state).toBe('done');
    expect(row.attempts).toBe(1);
  });

  it('never starts a claim drained before its body: handed back with its attempts as they were', async () => {
    const fake = new FakeJobDriver();
    const handle = noop(fake);
    const row = fake.add({ name: handle.name, attempts: 1 });
    const drain = new AbortController();
    drain.abort(coreError('X_DRAINING', 'draining'));
    const { result } = runOne(fake, handle, 1_000, { signal: drain.signal });
    expect(await result).toEqual({ outcome: 'released', code: 'X_DRAINING' });
    expect(fake.calls).not.toContain(`start:${row.id}`);
    expect(fake.calls).not.toContain('body');
    expect(row.attempts).toBe(1);
    expect(row.state).toBe('delayed');
  });

  it('dead-letters a row whose every allowed attempt started (a poison body) without starting it again', async () => {
    const fake = new FakeJobDriver();
    const handle = noop(fake);
    const row = fake.add({ name: handle.name, attempts: 3, maxAttempts: 3 });
    const { result } = runOne(fake, handle);
    expect(await result).toEqual({ outcome: 'dead', code: 'X_JOB_MAX_ATTEMPTS' });
    expect(fake.calls).not.toContain(`start:${row.id}`);
    expect(fake.calls).not.toContain('body');
    expect(row.stopReason).toBe('attempts-exhausted');
    expect(row.attempts).toBe(3);
  });

  it('runs nothing and settles nothing when an awaited start finds the claim gone', async () => {
    const fake = new FakeJobDriver();
    const handle = noop(fake);
    // A retry (attempt 2): its start is awaited before the body (a first attempt's overlaps it).
    const row = fake.add({ name: handle.name, attempts: 1 });
    fake.wrap('start', async () => false);
    const { result } = runOne(fake, handle);
    expect((await result).outcome).toBe('lease-lost');
    expect(fake.calls).not.toContain('body');
    expect(fake.calls.filter((call) => call.startsWith('ack') || call.startsWith('nack'))).toEqual([]);
    expect(row.state).toBe('running');
  });

  it('counts the attempt of a claim that fails before its body, so an unknown job still ends', async () => {
    const fake = new FakeJobDriver();
    const handle = noop(fake);
    const row = fake.add({ name: 'nobody-knows-me', maxAttempts: 5 });
    const { result } = runOne(fake, handle);
    expect(await result).toEqual({ outcome: 'retried', code: 'X_JOB_UNKNOWN' });
    expect(row.attempts).toBe(1);
    expect(fake.calls).not.toContain('body');
  });
});
