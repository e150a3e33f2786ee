import { wakeOnlyReads } from '@x/jobs-conformance';
import { awaitResult, errorCode } from '@x/jobs-core';
import type { SettledJobs } from '@x/jobs-core/driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { DriverPool, requireRedis } from '../../test/redis-fixture.js';
import type { RedisJobDriver } from '../index.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Enqueues a row on `worker`, claims and starts it: the running job another process will settle. */
async function startedJob(worker: RedisJobDriver, queue: string) {
  const { id } = await worker.enqueue(enqueueRequest(queue));
  const [job] = await worker.claim({ queues: [queue], limit: 1, workerId: 'w', visibilityTimeoutMs: 60_000 });
  expect(job?.id).toBe(id);
  expect(await worker.start(job!.id, job!.claim, 60_000)).toBe(true);
  return job!;
}

describe('the settle wake across two driver instances (two connections: two processes)', () => {
  const pool = new DriverPool();
  let awaiter: RedisJobDriver;
  let worker: RedisJobDriver;
  beforeAll(async () => {
    await requireRedis();
    worker = pool.open();
    awaiter = pool.open({ prefix: worker.prefix });
    // Make the awaiter's settle subscription live first (the subscriber connects asynchronously).
    const heard: SettledJobs[] = [];
    const unsubscribe = awaiter.wake.subscribeSettled!((jobs) => heard.push(jobs));
    const deadline = Date.now() + 5_000;
    let live = false;
    while (!live && Date.now() < deadline) {
      const job = await startedJob(worker, 'warm-up');
      await worker.ack(job.id, job.claim, null);
      await sleep(50);
      live = heard.some((jobs) => jobs === null || jobs.includes(job.id));
    }
    unsubscribe();
    expect(live, 'the settle subscription went live').toBe(true);
  });
  afterAll(() => pool.end());

  // Through wakeOnlyReads, a read of a finished row answers it only when a settle wake caused the
  // read: the awaits below can end only on the wake, never on their fallback poll (every 200 ms
  // here), however loaded the machine. Their timeout only turns a lost wake into a clear failure.
  it("awaitResult hears another process's acks (sent together) and dead-letter through the settle wake, not its poll", async () => {
    const view = wakeOnlyReads(awaiter);
    const waitFor = (id: string) => awaitResult(id, { driver: view.driver, poll: '200ms', timeout: '15s' });
    const jobs = [await startedJob(worker, 'settle-q'), await startedJob(worker, 'settle-q')];
    const dead = await startedJob(worker, 'settle-q');
    const results = Promise.all(jobs.map((job) => waitFor(job.id)));
    const failure = waitFor(dead.id).then(
      () => 'resolved',
      (error: unknown) => errorCode(error),
    );
    const acked = await Promise.all(jobs.map((job, i) => worker.ack(job.id, job.claim, { n: i })));
    expect(acked).toEqual([true, true]);
    expect(
      await worker.nack(dead.id, dead.claim, {
        kind: 'dead',
        error: { code: 'X_CARD_DECLINED', message: 'declined' },
        stopReason: 'terminal',
      }),
    ).toBe(true);
    expect(await results).toEqual([{ n: 0 }, { n: 1 }]);
    expect(await failure).toBe('X_CARD_DECLINED');
    expect(view.wakeReads, 'each finished row was read on a settle wake').toBe(3);
  }, 30_000);

  it('a cancel by another process ends the wait with X_JOB_CANCELLED through the settle wake', async () => {
    const view = wakeOnlyReads(awaiter);
    const { id } = await worker.enqueue(enqueueRequest('settle-cancel'));
    const waiting = awaitResult(id, { driver: view.driver, poll: '200ms', timeout: '15s' }).then(
      () => 'resolved',
      (error: unknown) => errorCode(error),
    );
    expect(await worker.introspect.cancel(id, 'not needed')).toBe(true);
    expect(await waiting).toBe('X_JOB_CANCELLED');
    expect(view.wakeReads).toBe(1);
  }, 30_000);
});
