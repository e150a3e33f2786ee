import { createWorker, isJobsError, job, recordingLogger, resetJobDriver, setJobDriver } from '@x/jobs-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { RedisServerProcess } from '../test/redis-server-process.js';
import { type RedisJobDriver, redisJobDriver } from './index.js';

// The driver's own redis-server (not the shared one): this test stops and restarts it.
let server: RedisServerProcess;
let driver: RedisJobDriver;
beforeAll(async () => {
  server = await RedisServerProcess.launch();
  driver = redisJobDriver({ url: server.url, prefix: 'outage' });
  setJobDriver(driver);
});
afterAll(async () => {
  resetJobDriver();
  await driver?.close();
  await server?.destroy();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Runs `call`, expecting X_DRIVER_UNAVAILABLE; answers how long the refusal took. */
async function refusalMs(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  const error = await call().then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(isJobsError(error) ? error.code : error).toBe('X_DRIVER_UNAVAILABLE');
  return performance.now() - started;
}

/** Jobs queued before the outage: enough that the worker is still busy when the server stops, even on a loaded machine. */
const FIRST_BATCH = 200;

const runs = new Map<number, number>();
const work = job({
  name: 'outage-work',
  queue: 'outage',
  input: z.object({ n: z.number().int() }),
  idempotencyKey: ({ n }) => `n-${n}`,
  tenant: 'none',
  retry: { attempts: 20, backoff: 'fixed', delay: 50, jitter: false },
  async run({ input }) {
    runs.set(input.n, (runs.get(input.n) ?? 0) + 1);
    await sleep(10);
    return { n: input.n };
  },
});

test('Redis stopped mid-run: enqueues are refused at once, the worker resumes, every committed job is done once', async () => {
  const committed = new Set<string>();
  const first = await work.enqueueMany(Array.from({ length: FIRST_BATCH }, (_, n) => ({ n })));
  for (const { id } of first) committed.add(id);

  const logger = recordingLogger();
  const worker = createWorker({
    driver,
    context: () => ({}),
    registry: { get: (name) => (name === work.name ? work : undefined) },
    queues: ['outage'],
    concurrency: 4,
    visibilityTimeoutMs: 1_000,
    handleSignals: false,
    logger,
  });
  await worker.start();
  try {
    await until(() => runs.size >= 15, 15_000, 'the first jobs to run');
    await server.stop();

    // Down: every call is refused with X_DRIVER_UNAVAILABLE, fast (no offline queue, no waiting).
    const refusals = [
      await refusalMs(() => work.enqueue({ n: 1000 })),
      await refusalMs(() => work.enqueue({ n: 1001 })),
      await refusalMs(() => driver.stats()),
      await refusalMs(() =>
        driver.claim({ queues: ['outage'], limit: 1, workerId: 'probe', visibilityTimeoutMs: 1000 }),
      ),
    ];
    for (const ms of refusals) expect(ms).toBeLessThan(1_000);
    expect(runs.size).toBeLessThan(FIRST_BATCH);
    await sleep(300);

    // Back on the same port and directory: the client reconnects by itself and the data is there.
    await server.start();
    let accepted = false;
    await until(
      async () => {
        try {
          committed.add((await work.enqueue({ n: FIRST_BATCH })).id);
          accepted = true;
        } catch (error) {
          expect(isJobsError(error) ? error.code : error).toBe('X_DRIVER_UNAVAILABLE');
        }
        return accepted;
      },
      10_000,
      'the driver to reconnect',
    );
    const second = await work.enqueueMany(Array.from({ length: 19 }, (_, i) => ({ n: FIRST_BATCH + 1 + i })));
    for (const { id } of second) committed.add(id);

    await until(
      async () => (await driver.stats())[0]?.counts.done === committed.size,
      20_000,
      'every job done',
    );
  } finally {
    await worker.stop();
  }

  const [stats] = await driver.stats();
  expect(stats?.counts).toEqual({
    ready: 0,
    delayed: 0,
    running: 0,
    suspended: 0,
    done: committed.size,
    dead: 0,
    cancelled: 0,
  });
  const page = await driver.introspect!.list({ queue: 'outage', limit: 1000 });
  expect(page.jobs).toHaveLength(committed.size);
  expect(new Set(page.jobs.map((row) => row.id))).toEqual(committed);
  expect(page.jobs.every((row) => row.state === 'done')).toBe(true);
  // Refused enqueues wrote nothing; every committed input ran (a job caught mid-ack may run twice).
  expect([...runs.keys()].sort((a, b) => a - b)).toEqual(
    Array.from({ length: FIRST_BATCH + 20 }, (_, n) => n),
  );
  expect(logger.events.some((entry) => entry.fields.code === 'X_DRIVER_UNAVAILABLE')).toBe(true);
}, 60_000);
