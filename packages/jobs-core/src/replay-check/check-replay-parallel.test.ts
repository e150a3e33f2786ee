import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeJobDriver } from '../../test/fake-job-driver.js';
import { runOne } from '../../test/run-one.js';
import { setJobDriver } from '../ambient/driver-slot.js';
import { job } from '../declare/job.js';
import type { StepRecord } from '../driver/step-store.js';
import type { RunArgs } from '../job/run-args.js';
import type { InvokeState } from '../steps/step-invoke.js';
import { checkReplay, type ReplayRun } from './check-replay.js';
import type { ReplayCheckResult } from './replay-check-result.js';

const record = (
  name: string,
  position: number,
  status: StepRecord['status'],
  output: StepRecord['output'],
  completedAt: number | null = status === 'completed' ? 100 + position : null,
): StepRecord => ({ name, position, status, output, error: null, startedAt: position, completedAt });
const done = (name: string, position: number, output: StepRecord['output'], completedAt?: number) =>
  record(name, position, 'completed', output, completedAt);
const invoking = (
  childId: string,
  status: 'started' | 'failed' = 'started',
): [StepRecord['status'], InvokeState] => [
  status,
  { invoke: { childId, invocation: 0, cancelWithParent: true }, since: 1 },
];
const invokeRecord = (name: string, position: number, childId: string, status?: 'started' | 'failed') => {
  const [state, output] = invoking(childId, status);
  return record(name, position, state, output as never);
};

const runOf = (steps: readonly StepRecord[]): ReplayRun => ({
  id: 'j-1',
  runId: 'r-1',
  name: 'replay.parallel',
  payload: {},
  tenantId: null,
  attempts: 1,
  steps,
});

let ran = 0;
const body = (run: (args: RunArgs<Record<string, never>>) => Promise<unknown>) =>
  job({
    name: `replay.parallel.${Math.random().toString(36).slice(2)}`,
    input: z.object({}),
    idempotencyKey: () => 'k',
    tenant: 'none',
    run: run as never,
  });
const child = body(async () => {
  ran += 1;
  return { url: 'thumb.png' };
});
const never = () => {
  ran += 1;
  return 'ran';
};

/** A thumbnail invoke, then a publish. */
const invokeV1 = body(async ({ step }) => {
  const thumb = await step.invoke('thumb', child, {});
  await step.run('publish', never);
  return thumb;
});
const invokeRenamed = body(async ({ step }) => {
  await step.invoke('thumbnail', child, {});
  await step.run('publish', never);
});
const invokeAsRun = body(async ({ step }) => {
  await step.run('thumb', never);
});
/** Three parallel steps, then one after them. */
const fanOut = (names: readonly string[]) =>
  body(async ({ step }) => {
    await Promise.all(
      names.map((name) => (name === 'chart' ? step.invoke(name, child, {}) : step.run(name, never))),
    );
    await step.run('total', never);
  });
const fanOutWithSleep = body(async ({ step }) => {
  await Promise.all([step.run('sales', never), step.sleep('cool-off', '1h'), step.run('costs', never)]);
  await step.run('total', never);
});

/** sales, costs and chart called in that order, finished in reverse; total after them. */
const fanOutHistory = [
  done('sales', 0, 120, 30),
  done('costs', 1, 80, 20),
  done('chart', 2, { url: 'chart.png' }, 10),
  done('total', 3, 40, 40),
];

type Case = readonly [
  title: string,
  handle: ReturnType<typeof body>,
  steps: readonly StepRecord[],
  verdict: ReplayCheckResult | Record<string, unknown>,
];

const cases: readonly Case[] = [
  [
    'an unchanged invoke replays from the child result',
    invokeV1,
    [done('thumb', 0, { url: 'thumb.png' }), done('publish', 1, null)],
    { status: 'matches', replayed: 2 },
  ],
  [
    'an invoke whose child has not finished is where the replay stops',
    invokeV1,
    [invokeRecord('thumb', 0, 'child-1')],
    { status: 'matches', replayed: 0 },
  ],
  [
    'an invoke whose child failed is where the replay stops (the next attempt invokes a new child)',
    invokeV1,
    [invokeRecord('thumb', 0, 'child-1', 'failed')],
    { status: 'matches', replayed: 0 },
  ],
  [
    'a renamed invoke diverges',
    invokeRenamed,
    [done('thumb', 0, { url: 'thumb.png' }), done('publish', 1, null)],
    {
      status: 'diverges',
      replayed: 0,
      divergence: { position: 0, recorded: { name: 'thumb' }, asked: { name: 'thumbnail', kind: 'invoke' } },
    },
  ],
  [
    'a run asked where an invoke waits on its child diverges (another kind)',
    invokeAsRun,
    [invokeRecord('thumb', 0, 'child-1')],
    {
      status: 'diverges',
      divergence: { position: 0, recorded: { name: 'thumb', kind: 'invoke' }, asked: { kind: 'run' } },
    },
  ],
  [
    'a fan-out whose steps finished in reverse order matches',
    fanOut(['sales', 'costs', 'chart']),
    fanOutHistory,
    { status: 'matches', replayed: 4 },
  ],
  [
    'a fan-out with a step renamed diverges at that step',
    fanOut(['sales', 'spend', 'chart']),
    fanOutHistory,
    {
      status: 'diverges',
      divergence: { position: 1, recorded: { name: 'costs' }, asked: { name: 'spend', kind: 'run' } },
    },
  ],
  [
    'a fan-out with a step added diverges where it was added',
    fanOut(['sales', 'tax', 'costs', 'chart']),
    fanOutHistory,
    { status: 'diverges', divergence: { position: 1, recorded: { name: 'costs' }, asked: { name: 'tax' } } },
  ],
  [
    'a fan-out with a step added last diverges at the step recorded after the fan-out',
    fanOut(['sales', 'costs', 'chart', 'tax']),
    fanOutHistory,
    { status: 'diverges', divergence: { position: 3, recorded: { name: 'total' }, asked: { name: 'tax' } } },
  ],
  [
    'a fan-out with a step removed diverges at the missing one',
    fanOut(['sales', 'chart']),
    fanOutHistory,
    {
      status: 'diverges',
      divergence: { position: 1, recorded: { name: 'costs' }, asked: { name: 'chart' } },
    },
  ],
  [
    'a fan-out step of another kind diverges',
    fanOut(['sales', 'costs', 'chart']),
    [...fanOutHistory.slice(0, 2), record('chart', 2, 'started', { wakeAt: 5 })],
    {
      status: 'diverges',
      divergence: { position: 2, recorded: { name: 'chart', kind: 'sleep' }, asked: { kind: 'invoke' } },
    },
  ],
  [
    'a parked step in a fan-out stops the replay there, and its siblings are still checked',
    fanOutWithSleep,
    [done('sales', 0, 1), record('cool-off', 1, 'started', { wakeAt: 5 }), done('costs', 2, 2)],
    { status: 'matches', replayed: 2 },
  ],
  [
    'a sibling of a parked step renamed still diverges',
    fanOutWithSleep,
    [done('sales', 0, 1), record('cool-off', 1, 'started', { wakeAt: 5 }), done('spend', 2, 2)],
    {
      status: 'diverges',
      divergence: { position: 2, recorded: { name: 'spend' }, asked: { name: 'costs' } },
    },
  ],
];

describe('checkReplay over step.invoke and parallel steps', () => {
  it.each(cases)('%s', async (_title, handle, steps, verdict) => {
    ran = 0;
    expect(await checkReplay(handle, runOf(steps))).toMatchObject(verdict);
    expect(ran, 'no step function or child ran').toBe(0);
  });

  it('answers chains after parallel steps in the order the executor recorded them', async () => {
    // Per branch fetch then save: each save's position is taken when its fetch finished.
    const chains = body(async ({ step }) => {
      await Promise.all(
        ['a', 'b', 'c'].map(async (key, i) => {
          await step.run(
            `fetch-${key}`,
            () => new Promise((resolve) => setTimeout(resolve, 40 - 15 * i, key)),
          );
          await step.run(`save-${key}`, () => key);
        }),
      );
      await step.sleep('settle', '1h');
    });
    const fake = new FakeJobDriver();
    setJobDriver(fake.driver);
    const row = fake.add({ name: chains.name });
    expect((await runOne(fake, chains).result).outcome).toBe('suspended');
    const detail = await fake.driver.introspect!.get(row.id);
    const positions = Object.fromEntries(detail!.steps.map((step) => [step.name, step.position]));
    expect(positions, 'c finished first, so save-c was called first').toMatchObject({
      'fetch-a': 0,
      'fetch-b': 1,
      'fetch-c': 2,
      'save-c': 3,
      'save-b': 4,
      'save-a': 5,
    });
    expect(await checkReplay(chains, detail!)).toEqual({ status: 'matches', replayed: 6 });
  });

  it('keeps X_REPLAY_CHECK_UNSUPPORTED for a step method it does not know', async () => {
    const newer = body(async ({ step }) => {
      await (step as unknown as { teleport(name: string): Promise<void> }).teleport('beam');
    });
    expect(await checkReplay(newer, runOf([]))).toMatchObject({
      status: 'failed',
      error: { code: 'X_REPLAY_CHECK_UNSUPPORTED' },
    });
  });
});
