import { createWorker, job, resetJobDriver, setJobDriver, silentLogger, type Worker } from '@x/jobs-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type PgFixture, pgFixture } from '../../test-support/pg-fixture.js';
import type { CancelJson } from './cancel.js';

const tag = Math.random().toString(36).slice(2, 8);
/** Never run here (no worker serves its queue): it stays `ready` while its parent waits on it. */
const child = job({
  name: `cancel-child-${tag}`,
  queue: `cancel-child-${tag}`,
  input: z.object({ n: z.number() }),
  idempotencyKey: ({ n }) => `child-${n}`,
  tenant: 'none',
  run: ({ input }) => input.n,
});
/** Waits on two children: `cascaded` follows a cancel of the parent, `kept` opted out. */
const parent = job({
  name: `cancel-parent-${tag}`,
  queue: `cancel-parent-${tag}`,
  input: z.object({ order: z.string() }),
  idempotencyKey: ({ order }) => order,
  tenant: 'none',
  async run({ step }) {
    return Promise.all([
      step.invoke('cascaded', child, { n: 1 }),
      step.invoke('kept', child, { n: 2 }, { cancelWithParent: false }),
    ]);
  },
});
/** Waits on one child: a cancel of that child fails it. */
const single = job({
  name: `cancel-single-${tag}`,
  queue: `cancel-single-${tag}`,
  input: z.object({ order: z.string() }),
  idempotencyKey: ({ order }) => order,
  tenant: 'none',
  run: ({ step }) => step.invoke('only', child, { n: 3 }),
});

describe('x-jobs cancel of a parent and of a child (PostgreSQL, through core cancelJob)', () => {
  let pg: PgFixture;
  let worker: Worker | undefined;
  beforeAll(async () => {
    pg = await pgFixture();
    setJobDriver(pg.driver);
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    resetJobDriver();
    await pg?.drop();
  });

  /**
   * Enqueues `handle`, runs it on a worker until it suspends on its children; answers its id and
   * the child id of each of `steps`.
   */
  async function suspendedParent(
    handle: typeof parent | typeof single,
    order: string,
    steps: readonly string[],
  ) {
    const { id } = await handle.enqueue({ order });
    worker = createWorker({
      driver: pg.driver,
      context: () => ({}),
      registry: { get: (name: string) => (name === handle.name ? handle : undefined) },
      queues: [handle.queue],
      handleSignals: false,
      logger: silentLogger,
      idlePollMaxMs: 100,
    });
    await worker.start();
    const introspect = pg.driver.introspect!;
    await expect
      .poll(async () => (await introspect.get(id))?.state, { timeout: 30_000, interval: 20 })
      .toBe('suspended');
    const children = (await introspect.list({ name: child.name, limit: 100 })).jobs;
    const ofThis = async (step: string) => {
      const row = await introspect.get(id);
      const started = row?.steps.find((candidate) => candidate.name === step);
      const match = children.filter((candidate) => JSON.stringify(started).includes(candidate.id));
      expect(match, `the child of step ${step}`).toHaveLength(1);
      return match[0]!.id;
    };
    const ids: string[] = [];
    for (const step of steps) ids.push(await ofThis(step));
    return { id, children: ids };
  }

  it('cancelling a suspended parent cancels the child it waits on, but not one that opted out', async () => {
    const {
      id,
      children: [cascaded, kept],
    } = await suspendedParent(parent, `o-${tag}-1`, ['cascaded', 'kept']);
    await worker?.stop();
    const run = await pg.cli(['cancel', id, '--reason', 'order withdrawn', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<CancelJson>()).toEqual({
      id,
      cancelled: true,
      previousState: 'suspended',
      reason: 'order withdrawn',
    });
    const introspect = pg.driver.introspect!;
    expect(await introspect.get(cascaded!)).toMatchObject({
      state: 'cancelled',
      cancelReason: `parent ${id} cancelled`,
    });
    expect((await introspect.get(kept!))?.state, 'cancelWithParent: false').toBe('ready');
  });

  it('cancelling a child wakes its waiting parent, which fails with X_JOB_CHILD_CANCELLED', async () => {
    const {
      id,
      children: [only],
    } = await suspendedParent(single, `o-${tag}-2`, ['only']);
    const run = await pg.cli(['cancel', only!]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('(was ready)');
    // The worker (idle poll 100 ms) sees the woken parent at once; without the wake it would wait
    // for the invoke's event poll (30 s), past this timeout.
    const introspect = pg.driver.introspect!;
    await expect
      .poll(async () => (await introspect.get(id))?.state, { timeout: 15_000, interval: 50 })
      .toBe('dead');
    expect((await introspect.get(id))?.lastError?.code).toBe('X_JOB_CHILD_CANCELLED');
  });
});
