import { randomBytes } from 'node:crypto';
import { errorCode } from '@x/jobs-core';
import type { ClaimedJob } from '@x/jobs-core/driver';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, taggedDatabaseUrl } from '../test/database-url.js';
import { enqueueRequest } from '../test/enqueue-request.js';
import { killMidStatement, terminateSessions } from '../test/kill-sessions.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../test/scratch-schema.js';
import { migrate } from './migrate.js';
import { postgresJobDriver } from './postgres-job-driver.js';
import type { PostgresJobDriver } from './sql-job-driver.js';

const schema = scratchSchemaName('faults');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A driver whose sessions carry their own application_name, so only they are terminated. */
function taggedDriver(): { driver: PostgresJobDriver; tag: string } {
  const tag = `x-jobs-faults-${randomBytes(4).toString('hex')}`;
  const driver = postgresJobDriver(
    { connectionString: taggedDatabaseUrl(tag), max: 4 },
    { schema, migrate: false },
  );
  return { driver, tag };
}

async function listenPid(tag: string): Promise<number | undefined> {
  const rows = await adminQuery<{ pid: number }>(
    `select pid from pg_stat_activity where application_name = $1 and query ilike 'listen %'`,
    [tag],
  );
  return rows[0]?.pid;
}

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
});
afterAll(async () => {
  await dropSchema(schema);
});

describe('faults (real PostgreSQL, pg_terminate_backend from an admin session)', () => {
  it('the operation in flight when its session is killed fails X_DRIVER_UNAVAILABLE; the next ones succeed', async () => {
    const { driver, tag } = taggedDriver();
    const blocker = new pg.Client({ connectionString: DATABASE_URL });
    try {
      const request = enqueueRequest({ queue: `kill-${tag}` });
      await driver.enqueue(request);
      const [job] = await driver.claim({
        queues: [request.queue],
        limit: 1,
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      // Hold the row so the driver's ack waits on it: an operation verifiably in flight.
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query(`select 1 from "${schema}".jobs where id = $1 for update`, [request.id]);
      const inFlight = driver.ack(request.id, job!.claim);
      await expect
        .poll(
          async () =>
            (
              await adminQuery(
                `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
                [tag],
              )
            ).length,
          { timeout: 5000 },
        )
        .toBe(1);
      expect((await terminateSessions(tag, 'pool')).length).toBeGreaterThanOrEqual(1);
      const failure = await inFlight.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(errorCode(failure)).toBe('X_DRIVER_UNAVAILABLE');
      expect((failure as { meta: { retryable: boolean } }).meta.retryable).toBe(true);
      await blocker.query('rollback');
      // The pool replaces the dead sessions: the same claim still holds the row and acks.
      expect(await driver.ack(request.id, job!.claim)).toBe(true);
      expect((await driver.introspect.get(request.id))?.state).toBe('done');
    } finally {
      await blocker.end().catch(() => {});
      await driver.close();
    }
  });

  it('a cut LISTEN session reconnects by itself and wake fires again', async () => {
    const { driver, tag } = taggedDriver();
    try {
      const heard: string[] = [];
      await driver.ready();
      driver.wake!.subscribe((queue) => heard.push(queue));
      const before = await listenPid(tag);
      expect(before).toBeDefined();
      await terminateSessions(tag, 'listen');
      await expect
        .poll(async () => [undefined, before].includes(await listenPid(tag)), {
          timeout: 10_000,
          interval: 50,
        })
        .toBe(false);
      const queue = `after-cut-${tag}`;
      await driver.enqueue(enqueueRequest({ queue }));
      await expect.poll(() => heard, { timeout: 5000 }).toContain(queue);
    } finally {
      await driver.close();
    }
  });

  it('claiming and acking 500 jobs through a kill of every session: each job done exactly once', async () => {
    const { driver, tag } = taggedDriver();
    const queue = `exactly-once-${tag}`;
    const total = 500;
    await driver.enqueueMany(Array.from({ length: total }, () => enqueueRequest({ queue })));
    const landed = new Map<string, number>();
    /** Claims whose ack failed in flight: it may have committed with its answer lost. */
    const lostAcks = new Map<string, Set<string>>();
    let failures = 0;
    let killedPids: number[] = [];

    /** Acks until the driver answers; a failure is retried with the same claim. */
    const settle = async (job: ClaimedJob): Promise<void> => {
      for (;;) {
        try {
          if (await driver.ack(job.id, job.claim, { token: job.claim.token })) {
            landed.set(job.id, (landed.get(job.id) ?? 0) + 1);
          }
          return;
        } catch (error) {
          expect(errorCode(error)).toBe('X_DRIVER_UNAVAILABLE');
          failures += 1;
          lostAcks.set(job.id, (lostAcks.get(job.id) ?? new Set()).add(job.claim.token));
          await sleep(20);
        }
      }
    };
    const worker = async (): Promise<void> => {
      for (let idle = 0; idle < 20; ) {
        let claimed: readonly ClaimedJob[];
        try {
          claimed = await driver.claim({
            queues: [queue],
            limit: 20,
            workerId: tag,
            visibilityTimeoutMs: 1000,
          });
        } catch (error) {
          expect(errorCode(error)).toBe('X_DRIVER_UNAVAILABLE');
          failures += 1;
          await sleep(20);
          continue;
        }
        if (claimed.length === 0) {
          idle += 1;
          await sleep(100);
          continue;
        }
        idle = 0;
        await Promise.all(claimed.map(settle));
      }
    };
    /** Once a quarter of the jobs are done, kills every session of the driver mid-statement. */
    const killer = async (): Promise<void> => {
      while (landed.size < total / 4) await sleep(5);
      killedPids = await killMidStatement(tag, `"${schema}".jobs`);
    };
    try {
      await Promise.all([worker(), worker(), worker(), killer()]);
      expect(killedPids.length, 'sessions killed mid-run').toBeGreaterThan(0);
      expect(failures, 'statements in flight failed X_DRIVER_UNAVAILABLE').toBeGreaterThan(0);
      const rows = await adminQuery<{ id: string; state: string; result: { token: string } | null }>(
        `select id, state, result from "${schema}".job_history where queue = $1`,
        [queue],
      );
      expect(rows).toHaveLength(total);
      for (const row of rows) {
        expect(row.state, row.id).toBe('done');
        const acks = landed.get(row.id) ?? 0;
        expect(acks, `acks that landed for ${row.id}`).toBeLessThanOrEqual(1);
        if (acks === 0)
          expect(lostAcks.get(row.id)?.has(row.result!.token), `${row.id} acked by a lost ack`).toBe(true);
      }
    } finally {
      await driver.close();
    }
  }, 60_000);
});
