import {
  awaitResult,
  cancelJob,
  createWorker,
  errorCode,
  type JobDriver,
  JobsError,
  job,
  registerErrorRetry,
  resetJobDriver,
  setJobDriver,
  silentLogger,
} from '@x/jobs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FourDrivers, openFourDrivers } from './four-drivers.js';

// Child jobs as a step, parallel steps and awaiting a result, through a real worker on memory,
// PGlite, Postgres and Redis: the same code, the same answers.

registerErrorRetry({ X_PARITY_REFUSED: 'terminal' });

const square = job({
  name: 'parity-square',
  input: z.object({ n: z.number() }),
  idempotencyKey: ({ n }) => `square:${n}`,
  tenant: 'none',
  async run({ input, step }) {
    const sq = await step.run('multiply', () => input.n * input.n);
    return { n: input.n, sq, at: new Date(0) };
  },
});

const refuse = job({
  name: 'parity-refuse',
  input: z.object({ why: z.string() }),
  idempotencyKey: ({ why }) => why,
  tenant: 'none',
  retry: { attempts: 3 },
  async run({ input }) {
    throw new JobsError('X_PARITY_REFUSED', `refused: ${input.why}`);
  },
});

const forever = job({
  name: 'parity-forever',
  input: z.object({ tag: z.string() }),
  idempotencyKey: ({ tag }) => tag,
  tenant: 'none',
  async run({ input, step }) {
    return step.waitForEvent('never', `parity-never-${input.tag}`, { schema: z.object({}), timeout: '1d' });
  },
});

const fanOut = job({
  name: 'parity-fan-out',
  input: z.object({ tag: z.string() }),
  idempotencyKey: ({ tag }) => tag,
  tenant: 'none',
  eventPoll: '2s',
  async run({ step }) {
    const [two, three, local] = await Promise.all([
      step.invoke('square-2', square, { n: 2 }),
      step.invoke('square-3', square, { n: 3 }),
      step.run('local', async () => 10),
    ]);
    return { total: two.sq + three.sq + local, at: two.at };
  },
});

const wrapsRefusal = job({
  name: 'parity-wraps-refusal',
  input: z.object({ tag: z.string() }),
  idempotencyKey: ({ tag }) => tag,
  tenant: 'none',
  eventPoll: '2s',
  retry: { attempts: 3 },
  async run({ input, step }) {
    return step.invoke('refusal', refuse, { why: input.tag });
  },
});

const waitsForever = job({
  name: 'parity-waits-forever',
  input: z.object({ tag: z.string(), keepChild: z.boolean() }),
  idempotencyKey: ({ tag }) => tag,
  tenant: 'none',
  async run({ input, step }) {
    return step.invoke('forever', forever, { tag: input.tag }, { cancelWithParent: !input.keepChild });
  },
});

const handles = [square, refuse, forever, fanOut, wrapsRefusal, waitsForever];
const registry = { get: (name: string) => handles.find((handle) => handle.name === name) };

let four: FourDrivers;

beforeAll(async () => {
  four = await openFourDrivers();
});
afterAll(async () => {
  resetJobDriver();
  await four?.close();
});

/** Runs `body` with a worker on `driver` and the driver installed as the ambient one. */
async function withWorker(driver: JobDriver, body: () => Promise<void>): Promise<void> {
  setJobDriver(driver);
  const worker = createWorker({
    driver,
    registry,
    context: () => ({}),
    queues: ['default'],
    concurrency: 4,
    handleSignals: false,
    idlePollMaxMs: 250,
    logger: silentLogger,
  });
  await worker.start();
  try {
    await body();
  } finally {
    await worker.stop();
    resetJobDriver();
  }
}

/** Polls `read` until it answers something other than undefined (a generous deadline, not a timing). */
async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('eventually: still undefined after 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The child id the parent's invoke step recorded, once the child's row exists. */
async function childOf(driver: JobDriver, parentId: string, step: string): Promise<string> {
  return eventually(async () => {
    const parent = await driver.introspect!.get(parentId);
    const record = parent?.steps.find((s) => s.name === step);
    const childId = (record?.output as { invoke?: { childId: string } } | null)?.invoke?.childId;
    if (childId === undefined) return undefined;
    return (await driver.introspect!.get(childId)) === null ? undefined : childId;
  });
}

describe.each(['memory', 'pglite', 'postgres', 'redis'] as const)('on %s', (name) => {
  const driverOf = () => four.drivers.find((d) => d.name === name)!.driver;

  it('fans out two child jobs and a step, fans in their JSON results, and answers through result()', async () => {
    const driver = driverOf();
    await withWorker(driver, async () => {
      const enqueued = await fanOut.enqueue({ tag: `fan-${name}` });
      expect(Object.keys(enqueued).sort()).toEqual(['deduped', 'id', 'runId']);
      const result = await enqueued.result({ timeout: '90s' });
      expect(result).toEqual({ total: 23, at: '1970-01-01T00:00:00.000Z' });
      // Each child was enqueued once, whatever order the steps finished in; positions follow the calls.
      const children = await driver.introspect!.list({ name: square.name });
      expect(
        children.jobs
          .map((row) => row.payload)
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ).toEqual([{ n: 2 }, { n: 3 }]);
      const parent = await driver.introspect!.get(enqueued.id);
      const positions = Object.fromEntries(parent!.steps.map((s) => [s.name, s.position]));
      expect(positions).toEqual({ 'square-2': 0, 'square-3': 1, local: 2 });
      expect(parent!.steps.every((s) => s.status === 'completed')).toBe(true);
      // awaitResult on a finished job answers at once.
      expect(await awaitResult(enqueued.id, { driver })).toEqual(result);
    });
  });

  it("throws a child's terminal failure in the parent with the child's code", async () => {
    const driver = driverOf();
    await withWorker(driver, async () => {
      const enqueued = await wrapsRefusal.enqueue({ tag: `refusal-${name}` });
      const failure = await enqueued.result({ timeout: '90s' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(errorCode(failure)).toBe('X_PARITY_REFUSED');
      const parent = await driver.introspect!.get(enqueued.id);
      expect(parent).toMatchObject({ state: 'dead', stopReason: 'terminal', attempts: 1 });
      expect(parent!.lastError?.code).toBe('X_PARITY_REFUSED');
    });
  });

  it('cancelling a parent cancels the child it waits on, unless the step said otherwise', async () => {
    const driver = driverOf();
    await withWorker(driver, async () => {
      const cascading = await waitsForever.enqueue({ tag: `cascade-${name}`, keepChild: false });
      const kept = await waitsForever.enqueue({ tag: `kept-${name}`, keepChild: true });
      const cascadingChild = await childOf(driver, cascading.id, 'forever');
      const keptChild = await childOf(driver, kept.id, 'forever');
      await cancelJob(driver, cascading.id, 'not needed');
      await cancelJob(driver, kept.id);
      expect((await driver.introspect!.get(cascadingChild))?.state).toBe('cancelled');
      expect((await driver.introspect!.get(keptChild))?.state).not.toBe('cancelled');
      const awaited = await cascading.result({ timeout: '30s' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(errorCode(awaited)).toBe('X_JOB_CANCELLED');
      await cancelJob(driver, keptChild);
    });
  });

  it('awaitResult gives up with X_JOB_RESULT_TIMEOUT and X_JOB_RESULT_ABORTED, leaving the job alone', async () => {
    const driver = driverOf();
    await withWorker(driver, async () => {
      const enqueued = await forever.enqueue({ tag: `await-${name}` });
      const timedOut = await awaitResult(enqueued.id, { driver, timeout: '300ms' }).catch((e: unknown) => e);
      expect(errorCode(timedOut)).toBe('X_JOB_RESULT_TIMEOUT');
      const controller = new AbortController();
      const pending = enqueued.result({ signal: controller.signal }).catch((e: unknown) => e);
      controller.abort();
      expect(errorCode(await pending)).toBe('X_JOB_RESULT_ABORTED');
      const row = await driver.introspect!.get(enqueued.id);
      expect(row?.state === 'ready' || row?.state === 'running' || row?.state === 'suspended').toBe(true);
      await cancelJob(driver, enqueued.id);
    });
  });
});
