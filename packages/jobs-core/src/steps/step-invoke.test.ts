import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver, type FakeRow } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { setJobDriver } from '../ambient/driver-slot.js';
import { cancelJob, tryCancelJob } from '../caller/cancel-job.js';
import { job } from '../declare/job.js';
import { errorCode } from '../errors/jobs-error.js';
import { childEvent, childKey } from './child-link.js';
import { invokeStateOf } from './step-invoke.js';

function jobs(options: { cancelWithParent?: boolean } = {}) {
  const tag = Math.random().toString(36).slice(2);
  const child = job({
    name: `child-${tag}`,
    input: z.object({ n: z.number() }),
    idempotencyKey: ({ n }) => `n:${n}`,
    tenant: 'none',
    async run({ input }) {
      return { doubled: input.n * 2, at: new Date(0) };
    },
  });
  const parent = job({
    name: `parent-${tag}`,
    input: z.object({}),
    idempotencyKey: () => 'p',
    tenant: 'none',
    retry: { attempts: 3 },
    async run({ step }) {
      const out = await step.invoke('double', child, { n: 21 }, options);
      return out.doubled;
    },
  });
  return { child, parent };
}

/** The parent's invoke record and the child row it names. */
function invokeOf(fake: FakeJobDriver, parent: FakeRow) {
  const record = fake.steps.get(parent.runId)?.find((step) => step.name === 'double');
  const state = invokeStateOf(record);
  return { record, state, child: state === undefined ? undefined : fake.rows.get(state.invoke.childId) };
}

describe('step.invoke', () => {
  it('records the child id before it enqueues, enqueues once, suspends, then answers the JSON result', async () => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const { child, parent } = jobs();
    const row = fake.add({ name: parent.name });
    expect((await runOne(fake, parent).result).outcome).toBe('suspended');
    const first = invokeOf(fake, row);
    expect(first.record?.status).toBe('started');
    expect(first.child).toMatchObject({
      name: child.name,
      payload: { n: 21 },
      idempotencyKey: childKey(row.runId, 'double', 0),
    });
    expect(row.waitingFor).toBe(childEvent(row.runId));

    // A replay while the child is live reads its row and parks again: no second enqueue.
    fake.rows.delete(first.child!.id);
    fake.rows.set(first.child!.id, { ...first.child!, state: 'delayed', runAt: Date.now() + 3_600_000 });
    row.runAt = Date.now();
    expect((await runOne(fake, parent).result).outcome).toBe('suspended');
    expect(fake.calls.filter((call) => call.startsWith('enqueue:'))).toHaveLength(1);

    // The child runs; its ack wakes the parent through the parent run's event.
    fake.rows.get(first.child!.id)!.runAt = Date.now();
    expect((await runOne(fake, child).result).outcome).toBe('completed');
    expect(fake.published).toMatchObject([
      { event: childEvent(row.runId), payload: { childId: first.child!.id } },
    ]);
    expect(row.runAt).toBeLessThanOrEqual(Date.now());
    expect((await runOne(fake, parent).result).outcome).toBe('completed');
    expect(row.result).toBe(42);
    expect(invokeOf(fake, row).record).toMatchObject({
      status: 'completed',
      output: { doubled: 42, at: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('enqueues the recorded child when a crash left the record but no row', async () => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const { parent } = jobs();
    const row = fake.add({ name: parent.name });
    fake.steps.set(row.runId, [
      {
        name: 'double',
        position: 0,
        status: 'started',
        output: { invoke: { childId: 'child-from-before', invocation: 0, cancelWithParent: true }, since: 0 },
        error: null,
        startedAt: 0,
        completedAt: null,
      },
    ]);
    expect((await runOne(fake, parent).result).outcome).toBe('suspended');
    expect(fake.rows.get('child-from-before')?.idempotencyKey).toBe(childKey(row.runId, 'double', 0));
  });

  it("throws a dead child's code: terminal when the child stopped for good", async () => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const { parent } = jobs();
    const row = fake.add({ name: parent.name });
    await runOne(fake, parent).result;
    const { child } = invokeOf(fake, row);
    Object.assign(child!, {
      state: 'dead',
      lastError: { code: 'X_CARD_DECLINED', message: 'declined' },
      stopReason: 'terminal',
    });
    row.runAt = Date.now();
    expect(await runOne(fake, parent).result).toEqual({ outcome: 'dead', code: 'X_CARD_DECLINED' });
    expect(row).toMatchObject({ state: 'dead', stopReason: 'terminal' });
    expect(invokeOf(fake, row).record).toMatchObject({
      status: 'failed',
      error: { code: 'X_CARD_DECLINED' },
    });
  });

  it('retries the parent when the child ran out of attempts, invoking a new child', async () => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const { parent } = jobs();
    const row = fake.add({ name: parent.name });
    await runOne(fake, parent).result;
    const first = invokeOf(fake, row).child!;
    Object.assign(first, {
      state: 'dead',
      lastError: { code: 'X_FLAKY', message: 'flaky' },
      stopReason: 'attempts-exhausted',
    });
    row.runAt = Date.now();
    expect(await runOne(fake, parent).result).toMatchObject({ outcome: 'retried', code: 'X_FLAKY' });
    row.runAt = Date.now();
    expect((await runOne(fake, parent).result).outcome).toBe('suspended');
    const second = invokeOf(fake, row);
    expect(second.state?.invoke.invocation).toBe(1);
    expect(second.child?.id).not.toBe(first.id);
    expect(second.child?.idempotencyKey).toBe(childKey(row.runId, 'double', 1));
  });

  it('fails the parent for good with X_JOB_CHILD_CANCELLED when the child was cancelled', async () => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const { parent } = jobs();
    const row = fake.add({ name: parent.name });
    await runOne(fake, parent).result;
    await cancelJob(fake.driver, invokeOf(fake, row).child!.id);
    expect(row.runAt, "the child's cancel wakes the parent").toBeLessThanOrEqual(Date.now());
    expect(await runOne(fake, parent).result).toEqual({ outcome: 'dead', code: 'X_JOB_CHILD_CANCELLED' });
  });

  it('refuses an invalid child input before anything is recorded or enqueued', async () => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const child = jobs().child;
    const parent = job({
      name: `bad-parent-${Math.random().toString(36).slice(2)}`,
      input: z.object({}),
      idempotencyKey: () => 'p',
      tenant: 'none',
      async run({ step }) {
        return step.invoke('double', child, { n: 'x' } as never);
      },
    });
    const row = fake.add({ name: parent.name });
    expect(await runOne(fake, parent).result).toEqual({ outcome: 'dead', code: 'X_JOB_INPUT_INVALID' });
    expect(invokeOf(fake, row).state).toBeUndefined();
    expect(fake.calls.some((call) => call.startsWith('enqueue:'))).toBe(false);
  });
});

describe('cancelJob of a parent', () => {
  it.each([
    [true, 'cancelled'],
    [false, 'ready'],
  ] as const)('with cancelWithParent: %s leaves the waited-on child %s', async (cancelWithParent, state) => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const { parent } = jobs({ cancelWithParent });
    const row = fake.add({ name: parent.name });
    await runOne(fake, parent).result;
    await cancelJob(fake.driver, row.id, 'not needed');
    expect(row.state).toBe('cancelled');
    expect(invokeOf(fake, row).child?.state).toBe(state);
  });
});

describe('tryCancelJob', () => {
  it('cancels with the same cascade, and answers false rather than throwing when no live row is there', async () => {
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const { parent } = jobs({ cancelWithParent: true });
    const row = fake.add({ name: parent.name });
    await runOne(fake, parent).result;
    expect(await tryCancelJob(fake.driver, row.id, 'not needed')).toBe(true);
    expect(invokeOf(fake, row).child?.state).toBe('cancelled');
    expect(await tryCancelJob(fake.driver, row.id), 'already cancelled').toBe(false);
    expect(await tryCancelJob(fake.driver, 'no-such-job'), 'unknown').toBe(false);
    expect(errorCode(await cancelJob(fake.driver, row.id).catch((error: unknown) => error))).toBe(
      'X_JOB_NOT_CANCELLABLE',
    );
  });
});
