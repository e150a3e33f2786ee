import { randomUUID } from 'node:crypto';
import {
  createWorker,
  type JobDriver,
  type JobIntrospection,
  job,
  resetJobDriver,
  setJobDriver,
  silentLogger,
  type Worker,
} from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enqueueRow } from '../../test/memory-rows.js';
import { applyJobAction, setQueuePaused } from './job-action.js';

describe('applyJobAction (memory driver)', () => {
  let driver: JobDriver;
  let introspect: JobIntrospection;
  let queue: string;
  beforeEach(() => {
    driver = memoryJobDriver();
    introspect = driver.introspect as JobIntrospection;
    queue = `q-${randomUUID()}`;
  });
  afterEach(() => driver.close?.());

  /** A claimed row with steps `a` (completed), `b` (completed) and `c` (left started), then dead. */
  async function deadWithSteps(): Promise<string> {
    const id = await enqueueRow(driver, { name: 'onboard', queue });
    const [job] = await driver.claim({
      queues: [queue],
      limit: 1,
      workerId: 't',
      visibilityTimeoutMs: 60_000,
    });
    if (job === undefined) throw new Error('not claimed');
    const fence = { jobId: job.id, runId: job.runId, claim: job.claim };
    for (const [position, name] of ['a', 'b', 'c'].entries()) {
      await driver.steps.save(fence, {
        name,
        position,
        status: name === 'c' ? 'started' : 'completed',
        output: name,
        error: null,
        startedAt: 1,
        completedAt: name === 'c' ? null : 2,
      });
    }
    await driver.nack(job.id, job.claim, {
      kind: 'dead',
      error: { code: 'X_STEP_OUTCOME_UNKNOWN', message: 'c' },
      stopReason: 'terminal',
    });
    return id;
  }

  const codeOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return 'resolved';
  };

  it('resolves a step left started, retries from a step, and refuses what the state does not allow', async () => {
    const id = await deadWithSteps();
    expect(await codeOf(applyJobAction(driver, id, { kind: 'resolve-step', step: 'a', ran: false }))).toBe(
      'X_DASHBOARD_ACTION_REFUSED',
    );
    await applyJobAction(driver, id, { kind: 'resolve-step', step: 'c', ran: true, output: { ok: 1 } });
    expect((await introspect.get(id))?.steps.find((step) => step.name === 'c')).toMatchObject({
      status: 'completed',
      output: { ok: 1 },
    });
    expect(await codeOf(applyJobAction(driver, id, { kind: 'retry', fromStep: 'zz' }))).toBe(
      'X_DASHBOARD_ACTION_REFUSED',
    );
    expect(await codeOf(applyJobAction(driver, id, { kind: 'promote' }))).toBe('X_DASHBOARD_ACTION_REFUSED');
    expect(await applyJobAction(driver, id, { kind: 'retry', fromStep: 'b' })).toEqual({
      id,
      action: 'retry',
      previousState: 'dead',
    });
    const retried = await introspect.get(id);
    expect(retried?.state).toBe('ready');
    expect(retried?.steps.map((step) => step.name)).toEqual(['a']);
    expect(await codeOf(applyJobAction(driver, id, { kind: 'retry' }))).toBe('X_DASHBOARD_ACTION_REFUSED');
    expect(await codeOf(applyJobAction(driver, randomUUID(), { kind: 'cancel' }))).toBe(
      'X_DASHBOARD_NOT_FOUND',
    );
  });

  it('promotes a delayed row, cancels a live one, removes a terminal one; pause is idempotent', async () => {
    const id = await enqueueRow(driver, { name: 'later', queue, runAt: driver.now() + 3_600_000 });
    expect((await introspect.get(id))?.state).toBe('delayed');
    await applyJobAction(driver, id, { kind: 'promote' });
    expect((await introspect.get(id))?.state).toBe('ready');
    await applyJobAction(driver, id, { kind: 'cancel', reason: 'not needed' });
    expect(await introspect.get(id)).toMatchObject({ state: 'cancelled', cancelReason: 'not needed' });
    expect(await codeOf(applyJobAction(driver, id, { kind: 'cancel' }))).toBe('X_DASHBOARD_ACTION_REFUSED');
    await applyJobAction(driver, id, { kind: 'remove' });
    expect(await introspect.get(id)).toBeNull();
    await setQueuePaused(introspect, queue, true);
    await setQueuePaused(introspect, queue, true);
    expect(await introspect.pausedQueues()).toEqual([queue]);
    await setQueuePaused(introspect, queue, false);
    expect(await introspect.pausedQueues()).toEqual([]);
    expect(await codeOf(setQueuePaused(introspect, ' ', true))).toBe('X_DASHBOARD_BAD_REQUEST');
  });
});

describe('applyJobAction cancel cascades through core cancelJob (memory driver, a real worker)', () => {
  const tag = randomUUID().slice(0, 8);
  /** Never run (no worker serves its queue): it stays `ready` while its parent waits on it. */
  const child = job({
    name: `child-${tag}`,
    queue: `child-${tag}`,
    input: z.object({ order: z.string() }),
    idempotencyKey: ({ order }) => order,
    tenant: 'none',
    run: ({ input }) => input.order,
  });
  const parent = job({
    name: `parent-${tag}`,
    queue: `parent-${tag}`,
    input: z.object({ order: z.string() }),
    idempotencyKey: ({ order }) => order,
    tenant: 'none',
    run: ({ input, step }) => step.invoke('charge', child, { order: input.order }),
  });
  let driver: ReturnType<typeof memoryJobDriver>;
  let worker: Worker;
  beforeEach(async () => {
    driver = memoryJobDriver();
    setJobDriver(driver);
    worker = createWorker({
      driver,
      context: () => ({}),
      registry: { get: (name: string) => (name === parent.name ? parent : undefined) },
      queues: [parent.queue],
      handleSignals: false,
      logger: silentLogger,
      idlePollMaxMs: 50,
    });
    await worker.start();
  });
  afterEach(async () => {
    await worker.stop();
    resetJobDriver();
    await driver.close();
  });

  /** A parent suspended on its `charge` child: both ids. */
  async function suspended(order: string) {
    const { id } = await parent.enqueue({ order });
    await expect
      .poll(async () => (await driver.introspect.get(id))?.state, { timeout: 10_000, interval: 10 })
      .toBe('suspended');
    const [row] = (await driver.introspect.list({ name: child.name, limit: 10 })).jobs.filter(
      (candidate) => (candidate.payload as { order?: string }).order === order,
    );
    if (row === undefined) throw new Error('the child was not enqueued');
    return { id, childId: row.id };
  }

  it('cancelling the parent cancels the child it waits on', async () => {
    const { id, childId } = await suspended('o-1');
    expect(await applyJobAction(driver, id, { kind: 'cancel', reason: 'withdrawn' })).toEqual({
      id,
      action: 'cancel',
      previousState: 'suspended',
    });
    expect(await driver.introspect.get(childId)).toMatchObject({
      state: 'cancelled',
      cancelReason: `parent ${id} cancelled`,
    });
  });

  it('cancelling the child wakes the parent, which fails with X_JOB_CHILD_CANCELLED', async () => {
    const { id, childId } = await suspended('o-2');
    await applyJobAction(driver, childId, { kind: 'cancel' });
    // Without the wake the parent would sleep until its invoke's event poll (30 s), past this timeout.
    await expect
      .poll(async () => (await driver.introspect.get(id))?.state, { timeout: 10_000, interval: 10 })
      .toBe('dead');
    expect((await driver.introspect.get(id))?.lastError?.code).toBe('X_JOB_CHILD_CANCELLED');
  });
});
