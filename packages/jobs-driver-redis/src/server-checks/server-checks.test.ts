import { randomUUID } from 'node:crypto';
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { isJobsError, recordingLogger } from '@x/jobs-core';
import type { EnqueueRequest } from '@x/jobs-core/driver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { adminClient } from '../../test/redis-fixture.js';
import { RedisServerProcess } from '../../test/redis-server-process.js';
import { type RedisJobDriver, redisJobDriver } from '../redis-job-driver.js';
import type { RedisJobDriverOptions } from '../redis-job-driver-options.js';

/** A reader the test collects from on demand. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const reader = new CollectingReader();
const provider = new MeterProvider({ readers: [reader] });
const servers: RedisServerProcess[] = [];
const drivers: RedisJobDriver[] = [];

beforeAll(() => {
  metrics.setGlobalMeterProvider(provider);
});
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((driver) => driver.close()));
  await Promise.all(servers.splice(0).map((server) => server.destroy()));
});
afterAll(async () => {
  metrics.disable();
  await provider.shutdown();
});

async function server(settings: readonly string[]): Promise<RedisServerProcess> {
  const launched = await RedisServerProcess.launch(settings);
  servers.push(launched);
  return launched;
}

function driverOn(target: RedisServerProcess, options: Partial<RedisJobDriverOptions> = {}) {
  const logger = recordingLogger();
  const driver = redisJobDriver({
    url: target.url,
    prefix: `checks-${randomUUID().slice(0, 8)}`,
    logger,
    ...options,
  });
  drivers.push(driver);
  return { driver, logger };
}

const request = (overrides: Partial<EnqueueRequest> = {}): EnqueueRequest => enqueueRequest('q', overrides);

async function codeOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return isJobsError(error) ? error.code : error;
  }
  return undefined;
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const NO_PERSISTENCE = ['--save', '', '--appendonly', 'no'];
const AOF = ['--save', '', '--appendonly', 'yes'];

describe('redis server checks, against real servers', () => {
  it('refuses every operation on a server that may evict (allkeys-lru), with an explicit opt-out', async () => {
    const lru = await server([...AOF, '--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']);
    const strict = driverOn(lru);
    expect(await codeOf(() => strict.driver.enqueue(request()))).toBe('X_REDIS_EVICTION_POLICY');
    expect(await codeOf(() => strict.driver.stats())).toBe('X_REDIS_EVICTION_POLICY');
    const relaxed = driverOn(lru, { allowEviction: true });
    expect((await relaxed.driver.enqueue(request())).deduped).toBe(false);
    expect(relaxed.logger.events.map((e) => [e.level, e.event])).toContainEqual([
      'warn',
      'redis.server.eviction-policy',
    ]);
  });

  it('answers X_REDIS_OUT_OF_MEMORY, not a raw ReplyError, when a noeviction server is full', async () => {
    const full = await server([...AOF, '--maxmemory', '2mb', '--maxmemory-policy', 'noeviction']);
    const { driver } = driverOn(full);
    const blob = 'x'.repeat(64 * 1024);
    let outcome: unknown;
    for (let i = 0; i < 200 && outcome === undefined; i++) {
      outcome = await codeOf(() => driver.enqueue(request({ payload: { blob } })));
    }
    expect(outcome).toBe('X_REDIS_OUT_OF_MEMORY');
  });

  it('warns when neither AOF nor RDB is on, and says so at error with a metric when the server comes back empty', async () => {
    const volatile = await server(NO_PERSISTENCE);
    const { driver, logger } = driverOn(volatile);
    const written = await driver.enqueue(request());
    expect(logger.events.map((e) => [e.level, e.event])).toContainEqual([
      'warn',
      'redis.server.not-persistent',
    ]);
    expect(logger.events.some((e) => e.event === 'redis.server.emptied')).toBe(false);
    await volatile.stop();
    await volatile.start();
    await until('redis.server.emptied', () => logger.events.some((e) => e.event === 'redis.server.emptied'));
    const emptied = logger.events.find((e) => e.event === 'redis.server.emptied');
    expect(emptied?.level).toBe('error');
    expect(emptied?.fields.restarted).toBe(true);
    expect(await driver.introspect?.get(written.id), 'the job really is gone').toBeNull();
    const { resourceMetrics } = await reader.collect();
    const lost = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === 'redis_server_data_lost_total');
    expect(lost?.dataPoints.reduce((sum, point) => sum + Number(point.value), 0)).toBeGreaterThanOrEqual(1);
  });

  it('stays quiet about a persistent server that restarts with its data', async () => {
    const durable = await server(AOF);
    const { driver, logger } = driverOn(durable);
    const written = await driver.enqueue(request());
    await durable.stop();
    await durable.start();
    for (let i = 0; i < 100; i++) {
      if ((await codeOf(() => driver.stats())) === undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await driver.introspect?.get(written.id)).not.toBeNull();
    expect(logger.events.filter((e) => e.level !== 'debug')).toEqual([]);
  });

  it('says a timed-out command may have been applied, and a retried enqueue dedupes onto it', async () => {
    const slow = await server([...AOF, '--enable-debug-command', 'yes']);
    const { driver } = driverOn(slow, { commandTimeoutMs: 300 });
    await driver.stats();
    const admin = adminClient(slow.url);
    try {
      await admin.ping();
      const sleeping = admin.call('DEBUG', 'SLEEP', '1.5');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const first = request();
      let caught: unknown;
      try {
        await driver.enqueue(first);
      } catch (error) {
        caught = error;
      }
      await sleeping;
      expect(isJobsError(caught, 'X_DRIVER_UNAVAILABLE'), String(caught)).toBe(true);
      expect((caught as { meta: { maybeApplied?: unknown } }).meta.maybeApplied).toBe(true);
      expect(await driver.introspect?.get(first.id), 'the timed-out enqueue landed').not.toBeNull();
      const again = await driver.enqueue({ ...first, id: randomUUID(), runId: randomUUID() });
      expect(again).toEqual({ id: first.id, runId: first.runId, deduped: true });
    } finally {
      admin.disconnect();
    }
  });
});
