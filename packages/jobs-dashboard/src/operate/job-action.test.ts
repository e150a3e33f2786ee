import { randomUUID } from 'node:crypto';
import type { JobDriver, JobIntrospection } from '@x/jobs-core';
import { memoryJobDriver } from '@x/jobs-driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    expect(
      await codeOf(applyJobAction(introspect, id, { kind: 'resolve-step', step: 'a', ran: false })),
    ).toBe('X_DASHBOARD_ACTION_REFUSED');
    await applyJobAction(introspect, id, { kind: 'resolve-step', step: 'c', ran: true, output: { ok: 1 } });
    expect((await introspect.get(id))?.steps.find((step) => step.name === 'c')).toMatchObject({
      status: 'completed',
      output: { ok: 1 },
    });
    expect(await codeOf(applyJobAction(introspect, id, { kind: 'retry', fromStep: 'zz' }))).toBe(
      'X_DASHBOARD_ACTION_REFUSED',
    );
    expect(await codeOf(applyJobAction(introspect, id, { kind: 'promote' }))).toBe(
      'X_DASHBOARD_ACTION_REFUSED',
    );
    expect(await applyJobAction(introspect, id, { kind: 'retry', fromStep: 'b' })).toEqual({
      id,
      action: 'retry',
      previousState: 'dead',
    });
    const retried = await introspect.get(id);
    expect(retried?.state).toBe('ready');
    expect(retried?.steps.map((step) => step.name)).toEqual(['a']);
    expect(await codeOf(applyJobAction(introspect, id, { kind: 'retry' }))).toBe(
      'X_DASHBOARD_ACTION_REFUSED',
    );
    expect(await codeOf(applyJobAction(introspect, randomUUID(), { kind: 'cancel' }))).toBe(
      'X_DASHBOARD_NOT_FOUND',
    );
  });

  it('promotes a delayed row, cancels a live one, removes a terminal one; pause is idempotent', async () => {
    const id = await enqueueRow(driver, { name: 'later', queue, runAt: driver.now() + 3_600_000 });
    expect((await introspect.get(id))?.state).toBe('delayed');
    await applyJobAction(introspect, id, { kind: 'promote' });
    expect((await introspect.get(id))?.state).toBe('ready');
    await applyJobAction(introspect, id, { kind: 'cancel', reason: 'not needed' });
    expect(await introspect.get(id)).toMatchObject({ state: 'cancelled', cancelReason: 'not needed' });
    expect(await codeOf(applyJobAction(introspect, id, { kind: 'cancel' }))).toBe(
      'X_DASHBOARD_ACTION_REFUSED',
    );
    await applyJobAction(introspect, id, { kind: 'remove' });
    expect(await introspect.get(id)).toBeNull();
    await setQueuePaused(introspect, queue, true);
    await setQueuePaused(introspect, queue, true);
    expect(await introspect.pausedQueues()).toEqual([queue]);
    await setQueuePaused(introspect, queue, false);
    expect(await introspect.pausedQueues()).toEqual([]);
    expect(await codeOf(setQueuePaused(introspect, ' ', true))).toBe('X_DASHBOARD_BAD_REQUEST');
  });
});
