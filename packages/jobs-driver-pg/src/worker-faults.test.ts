import { randomBytes } from 'node:crypto';
import {
  createWorker,
  type JobDriver,
  type JsonValue,
  job,
  recordingLogger,
  resetJobDriver,
  setJobDriver,
} from '@x/jobs-core';
import type { ClaimRef } from '@x/jobs-core/driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DATABASE_URL, taggedDatabaseUrl } from '../test/database-url.js';
import { killMidStatement, terminateSessions } from '../test/kill-sessions.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../test/scratch-schema.js';
import { migrate } from './migrate.js';
import { postgresJobDriver } from './postgres-job-driver.js';
import type { PostgresJobDriver } from './sql-job-driver.js';

const schema = scratchSchemaName('worker_faults');
const tag = `x-jobs-worker-faults-${randomBytes(4).toString('hex')}`;
let driver: PostgresJobDriver;
/** The driver the worker sees: the real one, counting the acks that landed per job. */
let counted: JobDriver;
const acked = new Map<string, number>();
/** Driver calls of the worker that failed, by error code (with whether it was marked retryable). */
const failed = new Map<string, number>();
const runs = new Map<number, number>();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const work = job({
  name: 'pg-fault-work',
  queue: 'pg-faults',
  input: z.object({ n: z.number().int() }),
  idempotencyKey: ({ n }) => `n-${n}`,
  tenant: 'none',
  retry: { attempts: 20, backoff: 'fixed', delay: 50, jitter: false },
  async run({ input }) {
    runs.set(input.n, (runs.get(input.n) ?? 0) + 1);
    await sleep(5);
    return { n: input.n };
  },
});

async function doneCount(): Promise<number> {
  const rows = await adminQuery<{ n: number }>(
    `select count(*)::int as n from "${schema}".job_history where state = 'done'`,
  );
  return rows[0]?.n ?? 0;
}

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  driver = postgresJobDriver(
    { connectionString: taggedDatabaseUrl(tag), max: 6 },
    { schema, migrate: false },
  );
  /** Runs a driver call for the worker, counting its failures by code and retryability. */
  const observe = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      const { code, meta } = error as { code?: string; meta?: { retryable?: boolean } };
      const key = `${code}:${meta?.retryable === true ? 'retryable' : 'final'}`;
      failed.set(key, (failed.get(key) ?? 0) + 1);
      throw error;
    }
  };
  counted = {
    ...driver,
    claim: (options) => observe(() => driver.claim(options)),
    nack: (jobId, claim, options) => observe(() => driver.nack(jobId, claim, options)),
    heartbeat: (jobId, claim, ms) => observe(() => driver.heartbeat(jobId, claim, ms)),
    async ack(jobId: string, claim: ClaimRef, result?: JsonValue) {
      const landed = await observe(() => driver.ack(jobId, claim, result));
      if (landed) acked.set(jobId, (acked.get(jobId) ?? 0) + 1);
      return landed;
    },
  };
  setJobDriver(counted);
});
afterAll(async () => {
  resetJobDriver();
  await driver.close();
  await dropSchema(schema);
});

describe('a worker on the Postgres driver through faults', () => {
  it('keeps going when every session is killed mid-run and the LISTEN session is cut; each job done once', async () => {
    const logger = recordingLogger();
    const worker = createWorker({
      driver: counted,
      context: () => ({}),
      registry: { get: (name) => (name === work.name ? work : undefined) },
      queues: ['pg-faults'],
      concurrency: 8,
      // Long enough that no lease lapses while the kill holds the table locked on a loaded CI
      // machine (heartbeats and acks wait behind that lock too); a lapse would be a lost lease.
      visibilityTimeoutMs: 5_000,
      // Only the wake can start the last batch before the test times out.
      idlePollMaxMs: 60_000,
      handleSignals: false,
      logger,
      doneRetentionMs: 0,
    });
    const first = await work.enqueueMany(Array.from({ length: 300 }, (_, n) => ({ n })));
    await worker.start();
    try {
      await expect.poll(() => runs.size, { timeout: 20_000, interval: 10 }).toBeGreaterThanOrEqual(60);
      expect((await killMidStatement(tag, `"${schema}".jobs`)).length).toBeGreaterThan(0);
      await expect.poll(doneCount, { timeout: 30_000, interval: 100 }).toBe(first.length);

      // Cut only the LISTEN session while the worker idles: it reconnects, and the next enqueue
      // still wakes the worker (its poll is a minute away).
      expect(await terminateSessions(tag, 'listen')).toHaveLength(1);
      await sleep(500);
      const second = await work.enqueueMany(Array.from({ length: 20 }, (_, i) => ({ n: 300 + i })));
      await expect.poll(doneCount, { timeout: 15_000, interval: 50 }).toBe(first.length + second.length);
    } finally {
      await worker.stop();
    }

    const rows = await adminQuery<{ id: string; state: string }>(
      `select id, state from "${schema}".jobs union all select id, state from "${schema}".job_history`,
    );
    expect(rows).toHaveLength(320);
    for (const row of rows) {
      expect(row.state).toBe('done');
      expect(acked.get(row.id) ?? 0, `acks that landed for ${row.id}`).toBeLessThanOrEqual(1);
    }
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 320 }, (_, n) => n));
    // The statements caught by the kill failed with the coded, retryable error, and nothing else.
    expect([...failed.keys()]).toEqual(['X_DRIVER_UNAVAILABLE:retryable']);
    expect(logger.events.filter((entry) => entry.level === 'error')).toEqual([]);
  }, 90_000);
});
