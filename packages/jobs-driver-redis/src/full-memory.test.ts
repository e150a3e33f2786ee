import { createWorker, errorCode, job, setJobDriver } from '@x/jobs-core';
import type { ClaimedJob } from '@x/jobs-core/driver';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enqueueRequest } from '../test/enqueue-request.js';
import { adminClient, uniquePrefix } from '../test/redis-fixture.js';
import { RedisServerProcess } from '../test/redis-server-process.js';
import { type RedisJobDriver, redisJobDriver } from './index.js';

const QUEUE = 'full';
/** A queue claimed fairly across tenants (the claim-fair script). */
const FAIR = 'full-fair';
const PAYLOAD = { blob: 'x'.repeat(1024) };

let server: RedisServerProcess;
let admin: Redis;
let driver: RedisJobDriver;
let accepted = 0;
let fillers = 0;

/** The code an enqueue answers right now (null when it was accepted). */
async function enqueueCode(): Promise<string | null> {
  try {
    await driver.enqueue(enqueueRequest(QUEUE, { payload: PAYLOAD }));
    accepted += 1;
    return null;
  } catch (error) {
    return errorCode(error) ?? String(error);
  }
}

/** Writes 1 KiB filler keys until the server refuses one: memory is at the limit again. */
async function topUp(): Promise<void> {
  for (;;) {
    try {
      await admin.set(`{${driver.prefix}}:filler:${fillers}`, PAYLOAD.blob);
      fillers += 1;
    } catch (error) {
      expect(String(error)).toMatch(/OOM/);
      return;
    }
  }
}

/** Claims one row of `queue` (starting it in the claim when `start`), at the memory limit. */
async function claimOne(start = 0, queue = QUEUE): Promise<ClaimedJob> {
  await topUp();
  const [claimed] = await driver.claim({
    queues: [queue],
    limit: 1,
    workerId: 'w',
    visibilityTimeoutMs: 30_000,
    start,
  });
  expect(claimed, 'a claim at the memory limit').toBeDefined();
  return claimed as ClaimedJob;
}

beforeAll(async () => {
  // No persistence: the fill measures the data set alone. A small limit keeps the fill short.
  server = await RedisServerProcess.launch([
    '--maxmemory',
    '4mb',
    '--maxmemory-policy',
    'noeviction',
    '--appendonly',
    'no',
    '--save',
    '',
  ]);
  admin = adminClient(server.url);
  driver = redisJobDriver({
    url: server.url,
    prefix: uniquePrefix('full'),
    doneTtlMs: 1,
    queues: { [FAIR]: { fairness: 'tenant' } },
  });
  // A fair queue's first claim files its mirrors (a write that grows): done before the fill.
  await driver.enqueueMany(['a', 'b'].map((tenantId) => enqueueRequest(FAIR, { tenantId })));
  const [first] = await driver.claim({
    queues: [FAIR],
    limit: 1,
    workerId: 'w',
    visibilityTimeoutMs: 30_000,
  });
  await driver.nack(first?.id as string, first?.claim as ClaimedJob['claim'], { kind: 'release' });
  // Fill with accepted jobs, a batch at a time, until the server refuses an enqueue.
  for (;;) {
    const batch = Array.from({ length: 50 }, () => enqueueRequest(QUEUE, { payload: PAYLOAD }));
    try {
      await driver.enqueueMany(batch);
      accepted += batch.length;
    } catch (error) {
      expect(errorCode(error)).toBe('X_REDIS_OUT_OF_MEMORY');
      break;
    }
  }
}, 60_000);

afterAll(async () => {
  await driver?.close();
  admin?.disconnect();
  await server?.destroy();
});

describe('a full Redis (noeviction, at maxmemory) refuses enqueues and still drains', () => {
  it('filled up with accepted jobs, refuses the next enqueue with X_REDIS_OUT_OF_MEMORY', async () => {
    expect(accepted).toBeGreaterThan(500);
    await topUp();
    expect(await enqueueCode()).toBe('X_REDIS_OUT_OF_MEMORY');
  });

  it('claims, starts, heartbeats and acks at the limit', async () => {
    const claimed = await claimOne();
    await topUp();
    expect(await driver.start(claimed.id, claimed.claim, 30_000)).toBe(true);
    await topUp();
    expect(await driver.heartbeat(claimed.id, claimed.claim, 30_000)).toBe(true);
    await topUp();
    expect(await driver.ack(claimed.id, claimed.claim, { ok: true })).toBe(true);
    const fused = await claimOne(1);
    expect(fused.started).toBe(true);
    await topUp();
    expect(await driver.ack(fused.id, fused.claim, null)).toBe(true);
    const fair = await claimOne(1, FAIR);
    await topUp();
    expect(await driver.ack(fair.id, fair.claim, null)).toBe(true);
  });

  it('retries, releases, suspends and dead-letters at the limit', async () => {
    const error = { code: 'ERROR', message: 'failed at the limit' };
    const retried = await claimOne(1);
    await topUp();
    expect(await driver.nack(retried.id, retried.claim, { kind: 'retry', runAt: driver.now(), error })).toBe(
      true,
    );
    const released = await claimOne(1);
    await topUp();
    expect(await driver.nack(released.id, released.claim, { kind: 'release' })).toBe(true);
    const suspended = await claimOne(1);
    await topUp();
    expect(await driver.nack(suspended.id, suspended.claim, { kind: 'suspend', runAt: driver.now() })).toBe(
      true,
    );
    const dead = await claimOne(1);
    await topUp();
    expect(
      await driver.nack(dead.id, dead.claim, { kind: 'dead', error, stopReason: 'attempts-exhausted' }),
    ).toBe(true);
    expect((await driver.introspect.get(dead.id))?.state).toBe('dead');
  });

  it('a worker drains every accepted job, and enqueues are accepted again once memory is freed', async () => {
    await topUp();
    const ran = new Set<string>();
    const work = job({
      name: 'job',
      queue: QUEUE,
      input: z.unknown(),
      idempotencyKey: () => 'k',
      tenant: 'none',
      async run({ ctx }) {
        ran.add(ctx.jobId);
      },
    });
    setJobDriver(driver);
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry: { get: (name) => (name === work.name ? work : undefined) },
      queues: [QUEUE],
      concurrency: 20,
      handleSignals: false,
      doneRetentionMs: 0,
      logger: { log: () => undefined },
    });
    await worker.start();
    const live = async () =>
      (await driver.stats())
        .filter(({ queue }) => queue === QUEUE)
        .reduce((sum, { counts }) => sum + counts.ready + counts.delayed + counts.running, 0);
    const deadline = performance.now() + 120_000;
    while ((await live()) > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await worker.stop();
    expect(await live()).toBe(0);
    // Every accepted job ran (the dead-lettered one of the case above aside).
    expect(ran.size).toBeGreaterThanOrEqual(accepted - 10);
    // Still full of fillers: refused. Freed: accepted.
    await topUp();
    expect(await enqueueCode()).toBe('X_REDIS_OUT_OF_MEMORY');
    await admin.flushdb();
    expect(await enqueueCode()).toBeNull();
  }, 150_000);
});
