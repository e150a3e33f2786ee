import { job } from '@x/jobs-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createJobTestHarness, type JobTestHarness } from './index.js';

let harness: JobTestHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('step.waitForEvent', () => {
  const approval = z.object({ orderId: z.string(), approved: z.boolean() });
  const waits = (timeout: '1h' | '1d') =>
    job({
      name: `await-approval-${timeout}-${Math.random().toString(36).slice(2)}`,
      input: z.object({ orderId: z.string() }),
      idempotencyKey: ({ orderId }) => orderId,
      tenant: 'none',
      eventPoll: '10m',
      async run({ input, step }) {
        const answer = await step.waitForEvent('approval', 'order.approved', {
          schema: approval,
          match: { orderId: input.orderId },
          timeout,
        });
        return answer === null ? 'timed-out' : answer.approved ? 'approved' : 'rejected';
      },
    });

  it('suspends without burning an attempt, and resumes with the matching payload once published', async () => {
    const waiting = waits('1d');
    harness = createJobTestHarness({ jobs: [waiting] });
    const { id } = await harness.run(waiting, { orderId: 'o-1' });
    await harness.drain();
    const parked = await harness.job(id);
    expect(parked?.state).toBe('suspended');
    expect(parked?.waitingFor).toBe('order.approved');
    expect(parked?.attempts).toBe(0);

    await harness.publishEvent('order.approved', { orderId: 'someone-else', approved: false });
    await harness.drain();
    expect((await harness.job(id))?.state).toBe('suspended');

    await harness.publishEvent('order.approved', { orderId: 'o-1', approved: true });
    await harness.drain(); // the publish made the run due at once: no clock move needed
    const done = await harness.job(id);
    expect(done?.state).toBe('done');
    expect(done?.result).toBe('approved');
  });

  it('does not miss an event published between its last look and the suspension being recorded', async () => {
    const waiting = waits('1d');
    harness = createJobTestHarness({ jobs: [waiting] });
    const events = harness.driver.events;
    const find = events.find.bind(events);
    let raced = false;
    events.find = async (event, query) => {
      const found = await find(event, query);
      if (!raced) {
        raced = true; // the publish lands right after the wait looked, before it suspends
        await harness?.publishEvent('order.approved', { orderId: 'o-race', approved: true });
      }
      return found;
    };
    const { id } = await harness.run(waiting, { orderId: 'o-race' });
    await harness.drain(); // no clock move: the event must not wait for the 10-minute poll
    expect((await harness.job(id))?.result).toBe('approved');
  });

  it('answers null once the timeout passes', async () => {
    const waiting = waits('1h');
    harness = createJobTestHarness({ jobs: [waiting] });
    const { id } = await harness.run(waiting, { orderId: 'o-2' });
    await harness.drain();
    harness.clock.advance('1h');
    await harness.drain();
    expect((await harness.job(id))?.result).toBe('timed-out');
  });

  it('dead-letters a payload the schema refuses, terminally (X_JOB_EVENT_INVALID)', async () => {
    const waiting = waits('1d');
    harness = createJobTestHarness({ jobs: [waiting] });
    const { id } = await harness.run(waiting, { orderId: 'o-3' });
    await harness.drain();
    await harness.publishEvent('order.approved', { orderId: 'o-3', approved: 'yes' });
    await harness.drain();
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.lastError?.code).toBe('X_JOB_EVENT_INVALID');
    expect(row?.stopReason).toBe('terminal');
  });
});

describe('compensation', () => {
  it('unwinds last-in first-out, each as compensate:<name>, only once the run fails for good', async () => {
    const undone: string[] = [];
    const checkout = job({
      name: 'checkout',
      input: z.object({ orderId: z.string() }),
      idempotencyKey: ({ orderId }) => orderId,
      tenant: 'none',
      compensates: true,
      retry: { attempts: 2, delay: 1000, jitter: false },
      async run({ step }) {
        await step.run('reserve', () => 'r-1', { compensate: (id) => void undone.push(`release ${id}`) });
        await step.run('charge', () => ({ chargeId: 'c-1' }), {
          compensate: (charge) => void undone.push(`refund ${charge.chargeId}`),
        });
        await step.run('ship', () => {
          throw new Error('carrier down');
        });
      },
    });
    harness = createJobTestHarness({ jobs: [checkout] });
    const { id } = await harness.run(checkout, { orderId: 'o-9' });
    const trace = await harness.drain();
    expect(undone).toEqual(['refund c-1', 'release r-1']);
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.stopReason).toBe('attempts-exhausted');
    expect(row?.lastError?.message).toBe('carrier down');
    expect(row?.steps.map((s) => s.name)).toEqual([
      'reserve',
      'charge',
      'ship',
      'unwinding',
      'compensate:charge',
      'compensate:reserve',
    ]);
    // Not on the retry: the first failure compensated nothing, the charge executed once.
    expect(trace.steps.charge?.executions).toBe(1);
    expect(trace.steps['compensate:charge']?.executions).toBe(1);
  });

  it('still unwinds when the final attempt timed out: the body is aborted, the compensators are not', async () => {
    const undone: string[] = [];
    const slow = job({
      name: 'slow-checkout',
      input: z.object({}),
      idempotencyKey: () => 'slow-checkout',
      tenant: 'none',
      compensates: true,
      timeout: 20,
      retry: { attempts: 1 },
      async run({ step }) {
        await step.run('reserve', () => 'r-1', { compensate: (id) => void undone.push(`release ${id}`) });
        await step.run('hang', () => new Promise<never>(() => undefined));
      },
    });
    harness = createJobTestHarness({ jobs: [slow] });
    const { id } = await harness.run(slow, {});
    await harness.drain();
    expect(undone).toEqual(['release r-1']);
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.lastError?.code).toBe('X_JOB_TIMEOUT');
    expect(row?.steps.find((s) => s.name === 'compensate:reserve')?.status).toBe('completed');
  });

  it('resumes an unwind after a crash mid-compensation, skipping the compensators that completed', async () => {
    const undone: string[] = [];
    let crash = true;
    const booking = job({
      name: 'booking',
      input: z.object({}),
      idempotencyKey: () => 'booking',
      tenant: 'none',
      compensates: true,
      retry: { attempts: 1 },
      async run({ step }) {
        await step.run('hotel', () => 'h-1', {
          compensate: (id) => {
            undone.push(`cancel ${id}`);
            if (crash) return new Promise<never>(() => undefined); // the process "dies" here
          },
        });
        await step.run('flight', () => 'f-1', { compensate: (id) => void undone.push(`cancel ${id}`) });
        throw new Error('no car');
      },
    });
    harness = createJobTestHarness({ jobs: [booking] });
    const { id } = await harness.run(booking, {});
    const [claimed] = await harness.driver.claim({
      queues: ['default'],
      limit: 1,
      workerId: 'doomed',
      visibilityTimeoutMs: 1000,
    });
    const { executeJob, silentLogger } = await import('@x/jobs-core');
    void executeJob({
      // The attempt starts under the claim's short lease, so it lapses on the clock as a crash's would.
      driver: { ...harness.driver, start: (jobId, claim) => harness!.driver.start(jobId, claim, 1_000) },
      job: claimed!,
      registry: { get: () => booking },
      context: () => ({}),
      visibilityTimeoutMs: 60_000,
      logger: silentLogger,
    });
    await vi.waitFor(() => expect(undone).toEqual(['cancel f-1', 'cancel h-1']));

    crash = false;
    harness.clock.advance('2s'); // the crashed attempt's lease lapses; the next claim unwinds
    const trace = await harness.drain();
    expect(undone).toEqual(['cancel f-1', 'cancel h-1', 'cancel h-1']);
    // The resumed run (the one the harness observes) replays what completed and runs only the rest.
    expect(trace.steps['compensate:flight']).toEqual({ executions: 0, replays: 1 });
    expect(trace.steps['compensate:hotel']).toEqual({ executions: 1, replays: 0 });
    expect(trace.steps.hotel).toEqual({ executions: 0, replays: 1 });
    const row = await harness.job(id);
    expect(row?.state).toBe('dead');
    expect(row?.lastError?.message).toBe('no car');
    expect(row?.stopReason).toBe('attempts-exhausted');
  });

  it('marks a failing compensator X_JOB_COMPENSATION_FAILED', async () => {
    const failing = job({
      name: 'bad-undo',
      input: z.object({}),
      idempotencyKey: () => 'bad-undo',
      tenant: 'none',
      compensates: true,
      retry: { attempts: 1 },
      async run({ step }) {
        await step.run('a', () => 1, {
          compensate: () => {
            throw new Error('cannot undo');
          },
        });
        throw new Error('boom');
      },
    });
    harness = createJobTestHarness({ jobs: [failing] });
    const { id } = await harness.run(failing, {});
    await harness.drain();
    expect((await harness.job(id))?.lastError?.code).toBe('X_JOB_COMPENSATION_FAILED');
  });
});

describe('once steps', () => {
  it('is terminal X_STEP_OUTCOME_UNKNOWN after a crash between started and completed, until resolved', async () => {
    let crash = true;
    const payouts: string[] = [];
    const payout = job({
      name: 'payout',
      input: z.object({}),
      idempotencyKey: () => 'payout',
      tenant: 'none',
      retry: { attempts: 3, delay: 1000 },
      async run({ step }) {
        return step.run(
          'pay',
          () => {
            if (crash) return new Promise<never>(() => undefined); // the process "dies" mid-step
            payouts.push('paid');
            return 'paid';
          },
          { once: true },
        );
      },
    });
    harness = createJobTestHarness({ jobs: [payout], visibilityTimeoutMs: 60_000 });
    const { id } = await harness.run(payout, {});
    // Claim and start it, then abandon that attempt (a crash): its lease lapses on the clock.
    const [claimed] = await harness.driver.claim({
      queues: ['default'],
      limit: 1,
      workerId: 'w',
      visibilityTimeoutMs: 1000,
    });
    expect(claimed?.id).toBe(id);
    const { executeJob, silentLogger } = await import('@x/jobs-core');
    void executeJob({
      // The attempt starts under the claim's short lease, so it lapses on the clock as a crash's would.
      driver: { ...harness.driver, start: (jobId, claim) => harness!.driver.start(jobId, claim, 1_000) },
      job: claimed!,
      registry: { get: () => payout },
      context: () => ({}),
      visibilityTimeoutMs: 60_000,
      logger: silentLogger,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await harness.job(id))?.steps[0]?.status).toBe('started');

    crash = false;
    harness.clock.advance('2s'); // the crashed attempt's lease lapses
    await harness.drain();
    const stuck = await harness.job(id);
    expect(stuck?.state).toBe('dead');
    expect(stuck?.lastError?.code).toBe('X_STEP_OUTCOME_UNKNOWN');
    expect(payouts).toEqual([]);

    // An operator says it did not run; a retry runs it once.
    expect(await harness.driver.introspect?.resolveStep(id, 'pay', { ran: false })).toBe(true);
    expect(await harness.driver.introspect?.retry(id)).toBe(true);
    await harness.drain();
    expect(payouts).toEqual(['paid']);
    expect((await harness.job(id))?.state).toBe('done');
  });
});
