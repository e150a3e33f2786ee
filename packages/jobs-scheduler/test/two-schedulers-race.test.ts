import { randomUUID } from 'node:crypto';
import type { JobDriver, JobRecord } from '@x/jobs-core';
import { job, silentLogger } from '@x/jobs-core';
import { memoryJobDriver, virtualClock } from '@x/jobs-driver-memory';
import { migrate, postgresJobDriver } from '@x/jobs-driver-pg';
import { redisJobDriver } from '@x/jobs-driver-redis';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inProcessLeader } from '../src/in-process-leader.js';
import { createScheduler, type Scheduler } from '../src/scheduler.js';
import { task } from '../src/task.js';

// Two schedulers (two driver instances: two processes, as far as the backend can tell) dispatch
// the same tasks over 100 occurrences; every occurrence must be enqueued exactly once.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const OCCURRENCES = 100;
const MINUTE = 60_000;
// Every run starts on empty storage (its own schema or key prefix), 30 s past a minute: nothing is
// due at the first round, and each advance of a minute makes exactly one occurrence due.
const START = Date.parse('2026-03-01T00:00:30Z');

interface DriverPair {
  readonly a: JobDriver;
  readonly b: JobDriver;
  /** Closes both drivers and drops what the run stored (its schema or its keys). */
  close(): Promise<void>;
}

const backends: Record<string, () => Promise<DriverPair>> = {
  async memory() {
    const driver = memoryJobDriver();
    return { a: driver, b: driver, close: () => driver.close() };
  },
  async postgres() {
    const schema = `x_jobs_test_scheduler_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await migrate({ connectionString: DATABASE_URL }, { schema }).catch((error: unknown) => {
      throw new Error(`The scheduler race test needs PostgreSQL at DATABASE_URL=${DATABASE_URL}.`, {
        cause: error,
      });
    });
    const open = () =>
      postgresJobDriver({ connectionString: DATABASE_URL, max: 2 }, { schema, migrate: false });
    const a = open();
    const b = open();
    return {
      a,
      b,
      async close() {
        await Promise.all([a.close(), b.close()]);
        const admin = new pg.Client({ connectionString: DATABASE_URL });
        await admin.connect();
        try {
          await admin.query(`drop schema if exists "${schema}" cascade`);
        } finally {
          await admin.end();
        }
      },
    };
  },
  async redis() {
    const prefix = `xjobs-test-scheduler-${randomUUID().slice(0, 8)}`;
    const a = redisJobDriver({ url: REDIS_URL, prefix });
    const b = redisJobDriver({ url: REDIS_URL, prefix });
    await a.stats().catch((error: unknown) => {
      throw new Error(`The scheduler race test needs Redis at REDIS_URL=${REDIS_URL}.`, { cause: error });
    });
    return {
      a,
      b,
      async close() {
        await Promise.all([a.close(), b.close()]);
        const admin = new Redis(REDIS_URL);
        try {
          const keys = await admin.keys(`{${prefix}}:*`);
          if (keys.length > 0) await admin.del(...keys);
        } finally {
          await admin.quit();
        }
      },
    };
  },
};

// A one-entry and a two-entry task, both every minute (in two zones), enqueuing one job. Both
// catch up with run-all, so a round lost to a transient backend error on this shared server is
// fired by the next round instead of skipped: the count then measures double fires alone.
const raceJob = job({
  name: 'scheduler-race-job',
  input: z.object({ slot: z.string() }),
  idempotencyKey: ({ slot }) => `race:${slot}`,
  tenant: 'none',
  run: async () => undefined,
});
const raceTasks = [
  task({
    name: 'scheduler-race-single',
    cron: '* * * * *',
    tz: 'UTC',
    catchUp: 'run-all',
    enqueue: () => [[raceJob, { slot: 's' }]],
  }),
  task({
    name: 'scheduler-race-pair',
    cron: '* * * * *',
    tz: 'Europe/Berlin',
    catchUp: 'run-all',
    enqueue: () => [
      [raceJob, { slot: 'p1' }],
      [raceJob, { slot: 'p2' }],
    ],
  }),
];

async function listAll(driver: JobDriver, name: string): Promise<JobRecord[]> {
  const rows: JobRecord[] = [];
  let cursor: string | null = null;
  do {
    const page = await driver.introspect!.list({ name, limit: 1000, ...(cursor === null ? {} : { cursor }) });
    rows.push(...page.jobs);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

interface RaceResult {
  readonly keys: readonly string[];
  /** How many distinct schedulers led at least one round. */
  readonly leaders: number;
  /** Rounds in which a node found the watermark moved under it and fired nothing. */
  readonly lostRaces: number;
  /** What went wrong along the way (rounds no node led, failed dispatches), for the failure message. */
  readonly trouble: readonly string[];
}

/** Runs the race and answers the rows written; closing the pair drops its schema or keys. */
async function race(pair: DriverPair, election: 'lease' | 'none'): Promise<RaceResult> {
  try {
    const clock = virtualClock(START);
    const open = (driver: JobDriver): Scheduler =>
      createScheduler({
        driver,
        tasks: raceTasks,
        clock,
        logger: silentLogger,
        handleSignals: false,
        ...(election === 'none' ? { leader: inProcessLeader({ unsafe: true }) } : {}),
      });
    let a = open(pair.a);
    let b = open(pair.b);
    const leaders = new Set<Scheduler>();
    let lostRaces = 0;
    const trouble: string[] = [];
    await Promise.all([a.tick(), b.tick()]);
    for (let i = 1; i <= OCCURRENCES; i += 1) {
      clock.advance('1m');
      const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
      if (ra.leader) leaders.add(a);
      if (rb.leader) leaders.add(b);
      const dispatches = [...ra.tasks, ...rb.tasks];
      lostRaces += dispatches.filter((dispatch) => dispatch.outcome === 'lost-race').length;
      if (!ra.leader && !rb.leader) trouble.push(`round ${i}: no leader`);
      for (const failed of dispatches.filter((dispatch) => dispatch.outcome === 'failed')) {
        trouble.push(`round ${i}: ${JSON.stringify(failed)}`);
      }
      // A rolling deploy every 25 occurrences: the leader stops (releasing the lease) and a fresh
      // scheduler on the same driver replaces it, while the other one takes over.
      if (i % 25 === 0) {
        if (ra.leader) {
          await a.stop();
          a = open(pair.a);
        } else {
          await b.stop();
          b = open(pair.b);
        }
      }
    }
    await Promise.all([a.stop(), b.stop()]);
    const keys = (await listAll(pair.a, raceJob.name)).map((row) => row.idempotencyKey);
    return { keys, leaders: leaders.size, lostRaces, trouble };
  } finally {
    await pair.close();
  }
}

/** Each task enqueued each of the 100 minutes after `START` exactly once (three slots in all). */
function expectEachOccurrenceOnce({ keys, trouble }: RaceResult): void {
  expect(keys, trouble.join('; ')).toHaveLength(OCCURRENCES * 3);
  expect(new Set(keys).size).toBe(keys.length);
  const minutes = Array.from({ length: OCCURRENCES }, (_, i) =>
    new Date(START - 30_000 + (i + 1) * MINUTE).toISOString(),
  );
  for (const slot of ['s', 'p1', 'p2']) {
    const fired = keys.filter((key) => key.startsWith(`race:${slot}@`)).map((key) => key.split('@')[2]);
    expect(fired.sort()).toEqual(minutes);
  }
}

describe.each(Object.keys(backends))('two schedulers racing on %s', (backend) => {
  it(`with the leader lease: each of ${OCCURRENCES} occurrences enqueued once, across leader handovers`, async () => {
    const result = await race(await backends[backend]!(), 'lease');
    expectEachOccurrenceOnce(result);
    expect(result.leaders).toBeGreaterThan(1);
  }, 90_000);

  it(`with no election at all: the watermark compare-and-set alone still enqueues each occurrence once`, async () => {
    const result = await race(await backends[backend]!(), 'none');
    expectEachOccurrenceOnce(result);
    // Both nodes dispatched every round: the race was real, and the loser of each CAS fired nothing.
    expect(result.lostRaces).toBeGreaterThan(0);
  }, 90_000);
});
