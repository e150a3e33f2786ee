import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { job } from '../declare/job.js';

const HOUR_MS = 3_600_000;

function sleeper() {
  const handle = job({
    name: `sleeper-${Math.random().toString(36).slice(2)}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    async run({ step }) {
      await step.sleep('nap', '1h');
      return 'woke';
    },
  });
  return handle;
}

describe('promote of a sleeping job', () => {
  it('ends the sleep early, recorded on the step as { wakeAt, endedEarlyAt }', async () => {
    const fake = new FakeJobDriver();
    const handle = sleeper();
    const row = fake.add({ name: handle.name });
    expect((await runOne(fake, handle).result).outcome).toBe('suspended');
    expect(row.state).toBe('suspended');
    const wakeAt = row.runAt;
    expect(wakeAt).toBeGreaterThan(Date.now() + HOUR_MS - 60_000);

    expect(await fake.driver.introspect?.promote(row.id)).toBe(true);
    expect((await runOne(fake, handle).result).outcome).toBe('completed');
    expect(row.state).toBe('done');
    const nap = fake.steps.get(row.runId)?.find((step) => step.name === 'nap');
    expect(nap?.status).toBe('completed');
    const output = nap?.output as { wakeAt: number; endedEarlyAt: number };
    expect(output.wakeAt).toBe(wakeAt);
    expect(output.endedEarlyAt).toBeLessThan(wakeAt);
    expect(row.attempts).toBe(1); // the suspension handed its attempt back
  });

  it('does not end a sleep when the row comes back because a lease lapsed (not a promote)', async () => {
    const fake = new FakeJobDriver();
    const handle = sleeper();
    const claimedAt = Date.now() - 5_000;
    const startedAt = claimedAt + 1_000;
    // The attempt that began the sleep recorded it, then died before its suspension landed.
    const row = fake.add({
      name: handle.name,
      state: 'running',
      runAt: claimedAt,
      leaseExpiresAt: Date.now() - 1,
    });
    fake.steps.set(row.runId, [
      {
        name: 'nap',
        position: 0,
        status: 'started',
        output: { wakeAt: startedAt + HOUR_MS },
        error: null,
        startedAt,
        completedAt: null,
      },
    ]);
    expect((await runOne(fake, handle).result).outcome).toBe('suspended');
    expect(row.state).toBe('suspended');
    expect(row.runAt).toBe(startedAt + HOUR_MS);
    expect(fake.steps.get(row.runId)?.[0]?.status).toBe('started');
  });
});

describe('promote of a job waiting for an event', () => {
  it('re-checks the wait and parks again: only the event (or the timeout) ends it', async () => {
    const fake = new FakeJobDriver();
    const handle = job({
      name: `waiter-${Math.random().toString(36).slice(2)}`,
      input: z.object({}),
      idempotencyKey: () => 'k',
      tenant: 'none',
      async run({ step }) {
        return step.waitForEvent('approval', 'approved', { schema: z.object({}), timeout: '1h' });
      },
    });
    const row = fake.add({ name: handle.name });
    expect((await runOne(fake, handle).result).outcome).toBe('suspended');
    const before = fake.steps.get(row.runId)?.[0];
    expect(await fake.driver.introspect?.promote(row.id)).toBe(true);
    expect((await runOne(fake, handle).result).outcome).toBe('suspended');
    const after = fake.steps.get(row.runId)?.[0];
    expect(after?.status).toBe('started');
    expect(after?.output).toEqual(before?.output);
    expect(row.state).toBe('suspended');
  });
});
