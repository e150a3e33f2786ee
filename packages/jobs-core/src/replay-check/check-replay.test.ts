import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { job } from '../declare/job.js';
import type { StepRecord } from '../driver/step-store.js';
import { checkReplay, type ReplayRun } from './check-replay.js';

const done = (name: string, position: number, output: StepRecord['output'] = null): StepRecord => ({
  name,
  position,
  status: 'completed',
  output,
  error: null,
  startedAt: position,
  completedAt: position,
});
const parked = (name: string, position: number, output: StepRecord['output']): StepRecord => ({
  ...done(name, position, output),
  status: 'started',
  completedAt: null,
});

const runOf = (
  steps: readonly StepRecord[],
  payload: ReplayRun['payload'] = { orderId: 'o-1' },
): ReplayRun => ({
  id: 'j-1',
  runId: 'r-1',
  name: 'replay.checkout',
  payload,
  tenantId: null,
  attempts: 1,
  steps,
});

/** The recorded history of a checkout parked on its wait: reserve → charge → (waiting for) shipped. */
const history = [
  done('reserve', 0, 'reserved o-1'),
  done('charge', 1, { chargeId: 'ch_1' }),
  parked('shipped', 2, { since: 5, deadline: 10 }),
];

let ran = 0;
const checkoutV1 = job({
  name: 'replay.checkout',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }) => orderId,
  tenant: 'none',
  async run({ input, step }) {
    const reserved = await step.run('reserve', () => {
      ran += 1;
      return `reserved ${input.orderId}`;
    });
    const charge = await step.run('charge', () => {
      ran += 1;
      return { chargeId: `for ${reserved}` };
    });
    await step.waitForEvent('shipped', 'order.shipped', {
      schema: z.object({ trackingId: z.string() }),
      timeout: '1d',
    });
    return charge;
  },
});

const reordered = job({
  name: 'replay.checkout.reordered',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }) => orderId,
  tenant: 'none',
  async run({ step }) {
    await step.run('charge', () => 'charged');
    await step.run('reserve', () => 'reserved');
  },
});

const renamed = job({
  name: 'replay.checkout.renamed',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }) => orderId,
  tenant: 'none',
  async run({ step }) {
    await step.run('reserve', () => 'reserved');
    await step.run('capture', () => 'captured');
  },
});

const rekinded = job({
  name: 'replay.checkout.rekinded',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }) => orderId,
  tenant: 'none',
  async run({ step }) {
    await step.run('reserve', () => 'reserved');
    await step.run('charge', () => 'charged');
    await step.sleep('shipped', '1h');
  },
});

const shortened = job({
  name: 'replay.checkout.shortened',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }) => orderId,
  tenant: 'none',
  async run({ step }) {
    await step.run('reserve', () => 'reserved');
  },
});

const stuck = job({
  name: 'replay.checkout.stuck',
  input: z.object({ orderId: z.string() }),
  idempotencyKey: ({ orderId }) => orderId,
  tenant: 'none',
  async run({ ctx }) {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
  },
});

describe('checkReplay', () => {
  it('matches a run whose code asks for its recorded steps in order, answering outputs from storage and running nothing', async () => {
    ran = 0;
    expect(await checkReplay(checkoutV1, runOf(history))).toEqual({ status: 'matches', replayed: 2 });
    expect(ran, 'no step function ran').toBe(0);
  });

  it('stops at the first step without a record: a history that ends early matches', async () => {
    expect(await checkReplay(checkoutV1, runOf([done('reserve', 0, 'r')]))).toEqual({
      status: 'matches',
      replayed: 1,
    });
    expect(await checkReplay(checkoutV1, runOf([]))).toEqual({ status: 'matches', replayed: 0 });
  });

  it('reports another order at the first point of divergence', async () => {
    const result = await checkReplay(reordered, runOf(history));
    expect(result).toMatchObject({
      status: 'diverges',
      replayed: 0,
      divergence: { position: 0, recorded: { name: 'reserve' }, asked: { name: 'charge', kind: 'run' } },
    });
    expect(result.status === 'diverges' && result.divergence.reason).toContain('another order');
  });

  it('reports another name', async () => {
    const result = await checkReplay(renamed, runOf(history));
    expect(result).toMatchObject({
      status: 'diverges',
      replayed: 1,
      divergence: { position: 1, recorded: { name: 'charge' }, asked: { name: 'capture' } },
    });
    expect(result.status === 'diverges' && result.divergence.reason).toContain('another name');
  });

  it('reports another kind: a sleep where the run is parked on a wait', async () => {
    const result = await checkReplay(rekinded, runOf(history));
    expect(result).toMatchObject({
      status: 'diverges',
      replayed: 2,
      divergence: {
        position: 2,
        recorded: { name: 'shipped', kind: 'waitForEvent' },
        asked: { kind: 'sleep' },
      },
    });
  });

  it('reports code that finishes before a recorded step', async () => {
    expect(await checkReplay(shortened, runOf(history))).toMatchObject({
      status: 'diverges',
      divergence: { position: 1, recorded: { name: 'charge' }, asked: null },
    });
  });

  it('fails a run whose input no longer parses, or whose body does not reach its history in time', async () => {
    expect(await checkReplay(checkoutV1, runOf(history, { order: 1 }))).toMatchObject({
      status: 'failed',
      error: { code: 'X_JOB_INPUT_INVALID' },
    });
    expect(await checkReplay(stuck, runOf(history), { timeoutMs: 50 })).toMatchObject({
      status: 'failed',
      error: { code: 'X_REPLAY_CHECK_TIMEOUT' },
    });
  });

  it('skips compensation records and the unwinding marker, which no body asks for', async () => {
    const withUnwind = [
      ...history.slice(0, 2),
      done('unwinding', 2, null),
      done('compensate:charge', 3, null),
    ];
    expect(await checkReplay(checkoutV1, runOf(withUnwind))).toEqual({ status: 'matches', replayed: 2 });
  });
});
