import { wakeOnlyReads } from '@x/jobs-conformance';
import { awaitResult, errorCode, type JobDriver } from '@x/jobs-core';
import type { SettledJobs } from '@x/jobs-core/driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import { migrate } from '../migrate.js';
import { postgresJobDriver } from '../postgres-job-driver.js';

const schema = scratchSchemaName('settle_wake');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const open = () => postgresJobDriver({ connectionString: DATABASE_URL, max: 2 }, { schema, migrate: false });

/** Enqueues a row on `worker`, claims and starts it: the running job another process will settle. */
async function startedJob(worker: JobDriver, queue: string) {
  const { id } = await worker.enqueue(enqueueRequest({ queue }));
  const [job] = await worker.claim({ queues: [queue], limit: 1, workerId: 'w', visibilityTimeoutMs: 60_000 });
  expect(job?.id).toBe(id);
  expect(await worker.start(job!.id, job!.claim, 60_000)).toBe(true);
  return job!;
}

describe('the settle wake across two driver instances (two connections: two processes)', () => {
  let awaiter: JobDriver;
  let worker: JobDriver;
  beforeAll(async () => {
    await migrate({ connectionString: DATABASE_URL }, { schema });
    awaiter = open();
    worker = open();
    // Make the awaiter's settle LISTEN live first (a new subscription takes a round trip).
    const heard: SettledJobs[] = [];
    const unsubscribe = awaiter.wake!.subscribeSettled!((jobs) => heard.push(jobs));
    const deadline = Date.now() + 5_000;
    let live = false;
    while (!live && Date.now() < deadline) {
      const job = await startedJob(worker, 'warm-up');
      await worker.ack(job.id, job.claim, null);
      await sleep(100);
      live = heard.some((jobs) => jobs === null || jobs.includes(job.id));
    }
    unsubscribe();
    expect(live, 'the settle LISTEN went live').toBe(true);
  });
  afterAll(async () => {
    await awaiter?.close?.();
    await worker?.close?.();
    await dropSchema(schema);
  });

  // Through wakeOnlyReads, a read of a finished row answers it only when a settle wake caused the
  // read: the awaits below can end only on the wake, never on their fallback poll (every 200 ms
  // here), however loaded the machine. Their timeout only turns a lost wake into a clear failure.
  it("awaitResult hears another process's ack and dead-letter through the settle wake, not its poll", async () => {
    const view = wakeOnlyReads(awaiter);
    const done = await startedJob(worker, 'settle-q');
    const dead = await startedJob(worker, 'settle-q');
    const result = awaitResult(done.id, { driver: view.driver, poll: '200ms', timeout: '15s' });
    const failure = awaitResult(dead.id, { driver: view.driver, poll: '200ms', timeout: '15s' }).then(
      () => 'resolved',
      (error: unknown) => errorCode(error),
    );
    expect(await worker.ack(done.id, done.claim, { total: 42 })).toBe(true);
    expect(
      await worker.nack(dead.id, dead.claim, {
        kind: 'dead',
        error: { code: 'X_CARD_DECLINED', message: 'declined' },
        stopReason: 'terminal',
      }),
    ).toBe(true);
    expect(await result).toEqual({ total: 42 });
    expect(await failure).toBe('X_CARD_DECLINED');
    expect(view.wakeReads, 'each finished row was read on a settle wake').toBe(2);
  }, 30_000);

  it('a cancel by another process ends the wait with X_JOB_CANCELLED through the settle wake', async () => {
    const view = wakeOnlyReads(awaiter);
    const { id } = await worker.enqueue(enqueueRequest({ queue: 'settle-cancel' }));
    const waiting = awaitResult(id, { driver: view.driver, poll: '200ms', timeout: '15s' }).then(
      () => 'resolved',
      (error: unknown) => errorCode(error),
    );
    expect(await worker.introspect!.cancel(id, 'not needed')).toBe(true);
    expect(await waiting).toBe('X_JOB_CANCELLED');
    expect(view.wakeReads).toBe(1);
  }, 30_000);
});
