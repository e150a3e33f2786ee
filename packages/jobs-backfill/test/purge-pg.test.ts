import { randomUUID } from 'node:crypto';
import { createWorker, job, publishEvent, setJobDriver, silentLogger } from '@x/jobs-core';
import { migrate, postgresJobDriver } from '@x/jobs-driver-pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { purge, queuePurgeTargets } from '../src/index.js';
import { DATABASE_URL, dropSchema, scratchSchemaName } from './pg-scratch.js';

const schema = scratchSchemaName('purge');
let driver: ReturnType<typeof postgresJobDriver>;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  driver = postgresJobDriver({ connectionString: DATABASE_URL, max: 4 }, { schema, migrate: false });
  setJobDriver(driver);
});

afterAll(async () => {
  await driver?.close();
  await dropSchema(schema);
});

describe('purge() on Postgres', () => {
  it('sweeps the queue’s own done rows and expired events, one step per target, one clock reading', async () => {
    const queue = `q-${randomUUID()}`;
    const noop = job({
      name: `noop-${randomUUID()}`,
      queue,
      input: z.object({ n: z.number() }),
      idempotencyKey: ({ n }) => `n${n}`,
      tenant: 'none',
      run: () => 'ok',
    });
    const seen: number[] = [];
    const sweep = purge({
      name: `purge-${randomUUID()}`,
      queue,
      targets: () => [
        ...queuePurgeTargets({ doneRetention: '1ms' }),
        {
          name: 'app-cache',
          purgeExpired: (nowMs) => {
            seen.push(nowMs);
            return 0;
          },
        },
      ],
    });
    const worker = createWorker({
      driver,
      context: () => ({}),
      registry: { get: (name) => [noop, sweep].find((handle) => handle.name === name) as never },
      queues: [queue],
      handleSignals: false,
      logger: silentLogger,
    });
    const done = await noop.enqueue({ n: 1 });
    await worker.runDue();
    expect((await driver.introspect?.get(done.id))?.state).toBe('done');
    await publishEvent(`evt-${randomUUID()}`, { a: 1 }, { ttl: '1ms', driver });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const { id } = await sweep.enqueue({});
    await worker.runDue();
    const row = await driver.introspect?.get(id);
    expect(row?.state).toBe('done');
    const result = row?.result as { nowMs: number; removed: Record<string, number> };
    expect(result.removed['x-jobs.done']).toBeGreaterThanOrEqual(1);
    expect(result.removed['x-jobs.events']).toBeGreaterThanOrEqual(1);
    expect(seen).toEqual([result.nowMs]);
    expect(row?.steps.map((step) => step.name)).toEqual([
      'clock',
      'purge:x-jobs.done',
      'purge:x-jobs.events',
      'purge:app-cache',
    ]);
    expect(await driver.introspect?.get(done.id)).toBeNull();
    await worker.stop();
  });
});
