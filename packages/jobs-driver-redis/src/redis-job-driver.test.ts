import type { JobDriver } from '@x/jobs-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueRequest } from '../test/enqueue-request.js';
import { DriverPool, REDIS_URL, requireRedis } from '../test/redis-fixture.js';
import { sparePort } from '../test/redis-server-process.js';
import { redisJobDriver } from './index.js';

const pool = new DriverPool();
beforeAll(requireRedis);
afterEach(() => pool.cleanup());
afterAll(() => pool.end());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const request = enqueueRequest;

const claim = (driver: JobDriver, queues: string[], limit = 10) =>
  driver.claim({ queues, limit, workerId: 'w', visibilityTimeoutMs: 60_000 });

async function rejectionCode(call: () => Promise<unknown>): Promise<unknown> {
  return await call().then(
    () => 'resolved',
    (error: { code?: unknown }) => error.code,
  );
}

describe('redisJobDriver options', () => {
  it('refuses a bad queues option with X_QUEUE_OPTIONS_INVALID before connecting', () => {
    expect(() => redisJobDriver({ url: REDIS_URL, queues: { fair: { fair: true } } as never })).toThrow(
      expect.objectContaining({ code: 'X_QUEUE_OPTIONS_INVALID' }),
    );
  });

  it('refuses client together with url, a negative doneTtlMs and a prefix with braces', () => {
    const client = pool.admin;
    expect(() => redisJobDriver({ client, url: REDIS_URL })).toThrow(
      expect.objectContaining({ code: 'X_REDIS_OPTIONS_INVALID' }),
    );
    expect(() => redisJobDriver({ url: REDIS_URL, doneTtlMs: -1 })).toThrow(
      expect.objectContaining({ code: 'X_REDIS_OPTIONS_INVALID' }),
    );
    expect(() => redisJobDriver({ url: REDIS_URL, prefix: '{x}' })).toThrow(
      expect.objectContaining({ code: 'X_REDIS_OPTIONS_INVALID' }),
    );
  });

  it('uses a client it is given and leaves it open on close', async () => {
    const driver = pool.open({ client: pool.admin });
    await driver.enqueue(request('q'));
    await driver.close();
    expect(await pool.admin.ping()).toBe('PONG');
  });
});

describe('Redis down', () => {
  it('refuses every call with X_DRIVER_UNAVAILABLE instead of waiting', async () => {
    const driver = pool.open({ url: `redis://127.0.0.1:${await sparePort()}` });
    expect(await rejectionCode(() => driver.enqueue(request('q')))).toBe('X_DRIVER_UNAVAILABLE');
    expect(await rejectionCode(() => claim(driver, ['q']))).toBe('X_DRIVER_UNAVAILABLE');
    expect(await rejectionCode(() => driver.steps.load('r'))).toBe('X_DRIVER_UNAVAILABLE');
    expect(await rejectionCode(() => driver.introspect!.list())).toBe('X_DRIVER_UNAVAILABLE');
  });
});

describe('claim', () => {
  it('takes a batch across queues in one call, by priority, then runAt, then enqueue order', async () => {
    const driver = pool.open();
    const now = driver.now();
    const low = await driver.enqueue(request('a', { priority: 0, runAt: now - 5000 }));
    const highB = await driver.enqueue(request('b', { priority: 5 }));
    const highA = await driver.enqueue(request('a', { priority: 5, runAt: now - 1000 }));
    const lowLater = await driver.enqueue(request('b', { priority: 0, runAt: now - 5000 }));
    const claimed = await claim(driver, ['a', 'b', 'a'], 3);
    expect(claimed.map((job) => job.id)).toEqual([highA.id, highB.id, low.id]);
    expect((await claim(driver, ['a', 'b'])).map((job) => job.id)).toEqual([lowLater.id]);
  });

  it('hands each claimed row a distinct token', async () => {
    const driver = pool.open();
    await driver.enqueueMany([request('q'), request('q'), request('q')]);
    const tokens = (await claim(driver, ['q'])).map((job) => job.claim.token);
    expect(new Set(tokens).size).toBe(3);
  });
});

describe('enqueueMany', () => {
  it('writes more than one script batch (1,000) in request order', async () => {
    const driver = pool.open();
    const requests = Array.from({ length: 2500 }, () => request('bulk'));
    const results = await driver.enqueueMany(requests);
    expect(results.map((result) => result.id)).toEqual(requests.map((r) => r.id));
    expect((await driver.stats())[0]?.counts.ready).toBe(2500);
  });
});

describe('done retention', () => {
  it('expires a done row and its steps after doneTtlMs, keeps dead rows, and stats stops counting it', async () => {
    const driver = pool.open({ doneTtlMs: 300 });
    const done = await driver.enqueue(request('q'));
    const dead = await driver.enqueue(request('q'));
    const [first, second] = await claim(driver, ['q']);
    const doneJob = first!.id === done.id ? first! : second!;
    const deadJob = doneJob === first ? second! : first!;
    await driver.steps.save(
      { jobId: doneJob.id, runId: doneJob.runId, claim: doneJob.claim },
      { name: 's', position: 0, status: 'completed', output: 1, error: null, startedAt: 1, completedAt: 2 },
    );
    expect(await driver.ack(doneJob.id, doneJob.claim, 'ok')).toBe(true);
    await driver.nack(deadJob.id, deadJob.claim, {
      kind: 'dead',
      error: { code: 'E', message: 'm' },
      stopReason: 'terminal',
    });
    const ttl = await pool.admin.pttl(driver.keys.job(done.id));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    expect(await pool.admin.pttl(driver.keys.steps(doneJob.runId))).toBeGreaterThan(0);
    expect(await pool.admin.pttl(driver.keys.job(dead.id))).toBe(-1);

    await sleep(400);
    expect(await driver.introspect!.get(done.id)).toBeNull();
    expect(await driver.steps.load(doneJob.runId)).toEqual([]);
    expect((await driver.stats())[0]?.counts).toMatchObject({ done: 0, dead: 1 });
    expect((await driver.introspect!.list()).jobs.map((row) => row.id)).toEqual([dead.id]);
  });

  it('expires only the row of a job that saved no step, and shows no lease once it is done', async () => {
    const driver = pool.open({ doneTtlMs: 60_000 });
    const { id, runId } = await driver.enqueue(request('q'));
    const [job] = await claim(driver, ['q']);
    expect((await driver.introspect!.get(id))?.leaseExpiresAt).toBe(job!.leaseExpiresAt);
    expect(await driver.ack(id, job!.claim)).toBe(true);
    expect(await pool.admin.pttl(driver.keys.job(id))).toBeGreaterThan(0);
    expect(await pool.admin.exists(driver.keys.steps(runId))).toBe(0);
    expect(await driver.introspect!.get(id)).toMatchObject({ state: 'done', leaseExpiresAt: null });
    // The done row keeps its last token; every fenced call still refuses the finished claim.
    expect(await driver.ack(id, job!.claim)).toBe(false);
    expect(await driver.heartbeat(id, job!.claim, 60_000)).toBe(false);
    expect(await driver.nack(id, job!.claim, { kind: 'release' })).toBe(false);
    expect((await driver.introspect!.get(id))?.state).toBe('done');
  });

  it('keeps done rows with doneTtlMs 0', async () => {
    const driver = pool.open({ doneTtlMs: 0 });
    const { id } = await driver.enqueue(request('q'));
    const [job] = await claim(driver, ['q']);
    await driver.ack(id, job!.claim);
    expect(await pool.admin.pttl(driver.keys.job(id))).toBe(-1);
  });
});

describe('suspend', () => {
  it('an event published while the attempt ran makes a suspend waiting for it due now', async () => {
    const driver = pool.open();
    const { id } = await driver.enqueue(request('q'));
    const [job] = await claim(driver, ['q']);
    expect(await driver.start(id, job!.claim, 60_000)).toBe(true);
    await driver.events.publish('paid', { order: 1 }, { ttlMs: 60_000 });
    await driver.nack(id, job!.claim, { kind: 'suspend', runAt: driver.now() + 3_600_000, waitFor: 'paid' });
    expect((await driver.introspect!.get(id))?.state).toBe('suspended');
    expect((await claim(driver, ['q'])).map((again) => again.id)).toEqual([id]);
  });
});

describe('key space', () => {
  it('writes every key of the prefix inside its {hash tag}, so one Cluster slot holds them all', async () => {
    const driver = pool.open();
    const { id } = await driver.enqueue(request('q'));
    const [job] = await claim(driver, ['q']);
    await driver.steps.save(
      { jobId: id, runId: job!.runId, claim: job!.claim },
      {
        name: 's',
        position: 0,
        status: 'completed',
        output: null,
        error: null,
        startedAt: 1,
        completedAt: 1,
      },
    );
    await driver.ack(id, job!.claim);
    await driver.events.publish('e', {}, { ttlMs: 1000 });
    await driver.leases!.acquire('k', 'h', { limit: 1, ttlMs: 1000 });
    await driver.schedules!.advance('t', null, 1);
    await driver.introspect!.pause('p');
    const [, keys] = await pool.admin.scan('0', 'MATCH', `*${driver.prefix}*`, 'COUNT', 10_000);
    expect(keys.length).toBeGreaterThan(8);
    for (const key of keys) expect(key.startsWith(`{${driver.prefix}}:`)).toBe(true);
  });
});
