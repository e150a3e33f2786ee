import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../test/database-url.js';
import { enqueueRequest } from '../test/enqueue-request.js';
import { adminQuery, dropSchema, scratchSchemaName } from '../test/scratch-schema.js';
import { migrate } from './migrate.js';
import { postgresJobDriver } from './postgres-job-driver.js';
import type { PostgresJobDriver } from './sql-job-driver.js';

const schema = scratchSchemaName('driver');
let driver: PostgresJobDriver;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 3 });
/** Every statement the counted driver sent, through Kysely's log. */
const sent: string[] = [];
let counted: PostgresJobDriver;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  driver = postgresJobDriver({ connectionString: DATABASE_URL }, { schema, migrate: false });
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query.sql);
    },
  });
  counted = postgresJobDriver({ db }, { schema, migrate: false });
  await Promise.all([driver.ready(), counted.ready()]);
});
afterAll(async () => {
  await driver.close();
  await counted.close();
  await pool.end();
  await dropSchema(schema);
});

const claimAll = (queue: string, limit = 1000) =>
  driver.claim({ queues: [queue], limit, workerId: 'test-worker', visibilityTimeoutMs: 60_000 });

describe('names and payloads are always bound, never interpolated', () => {
  const hostile = `it's "x"; '; drop table ${schema}.jobs; --`;

  it('a queue, job and tenant named with quotes and SQL go through every statement intact', async () => {
    const request = enqueueRequest({
      name: `job ${hostile}`,
      queue: `queue ${hostile}`,
      tenantId: `tenant ${hostile}`,
      idempotencyKey: `key ${hostile}`,
      payload: { text: hostile, nested: { "quote'd": hostile } },
      enqueuedBy: hostile,
    });
    expect((await driver.enqueue(request)).deduped).toBe(false);
    expect((await driver.enqueue({ ...request, id: randomUUID() })).deduped).toBe(true);
    await driver.introspect.pause(request.queue);
    expect(await claimAll(request.queue)).toEqual([]);
    expect(await driver.introspect.pausedQueues()).toContain(request.queue);
    await driver.introspect.resume(request.queue);
    const [claimed] = await claimAll(request.queue);
    expect(claimed).toMatchObject({
      id: request.id,
      name: request.name,
      queue: request.queue,
      tenantId: request.tenantId,
      idempotencyKey: request.idempotencyKey,
      payload: request.payload,
    });
    expect(await driver.ack(request.id, claimed!.claim, { echo: hostile })).toBe(true);
    const row = await driver.introspect.get(request.id);
    expect(row).toMatchObject({ state: 'done', result: { echo: hostile }, enqueuedBy: hostile });
    expect(
      (await driver.introspect.list({ queue: request.queue, tenantId: request.tenantId! })).jobs,
    ).toHaveLength(1);
    expect((await driver.stats()).find((stats) => stats.queue === request.queue)?.counts.done).toBe(1);
    await driver.events.publish(hostile, { hostile }, { ttlMs: 60_000 });
    expect((await driver.events.find(hostile, { since: 0, match: { hostile } }))?.payload).toEqual({
      hostile,
    });
    const tables = await adminQuery('select 1 from information_schema.tables where table_schema = $1', [
      schema,
    ]);
    // The schema's own tables (jobs, job_history, rate_limits, fair_queues, fair_served, …) and
    // nothing a hostile name created.
    expect(tables.length).toBe(13);
  });

  it('works in a schema whose own name needs quoting', async () => {
    const odd = `${scratchSchemaName('odd')} it's "odd"`;
    const oddDriver = postgresJobDriver({ connectionString: DATABASE_URL }, { schema: odd });
    try {
      const request = enqueueRequest({ queue: hostile });
      await oddDriver.enqueue(request);
      let heard = '';
      const unsubscribe = oddDriver.wake!.subscribe((queue) => {
        heard = queue;
      });
      await oddDriver.enqueue(enqueueRequest({ queue: hostile }));
      await expect.poll(() => heard, { timeout: 10_000 }).toBe(hostile);
      unsubscribe();
      const claimed = await oddDriver.claim({
        queues: [hostile],
        limit: 5,
        workerId: 'w',
        visibilityTimeoutMs: 1000,
      });
      expect(claimed.map((job) => job.queue)).toEqual([hostile, hostile]);
    } finally {
      await oddDriver.close();
      await dropSchema(odd);
    }
  });
});

describe('enqueueMany', () => {
  it('writes 2,500 rows in three statements, in order, in-batch duplicates deduped to the first', async () => {
    const queue = `many-${randomUUID()}`;
    const requests = Array.from({ length: 2500 }, (_, i) =>
      enqueueRequest({ queue, idempotencyKey: `k${i}` }),
    );
    const repeat = enqueueRequest({ queue, idempotencyKey: 'k7' });
    requests.splice(1500, 0, repeat); // a repeat of k7 in the second chunk
    sent.length = 0;
    const results = await counted.enqueueMany(requests);
    expect(sent.filter((statement) => statement.includes('unnest'))).toHaveLength(3);
    expect(sent).toHaveLength(3);
    expect(results).toHaveLength(2501);
    results.forEach((result, index) => {
      const request = requests[index]!;
      if (request === repeat)
        expect(result).toEqual({ id: requests[7]!.id, runId: requests[7]!.runId, deduped: true });
      else expect(result).toEqual({ id: request.id, runId: request.runId, deduped: false });
    });
    const again = await counted.enqueueMany(requests.slice(0, 3).map((r) => ({ ...r, id: randomUUID() })));
    expect(again.map((result) => [result.id, result.deduped])).toEqual(
      requests.slice(0, 3).map((request) => [request.id, true]),
    );
  });

  it('answers a republished id (any state) as deduped, and dedupes a key only among live rows', async () => {
    const queue = `republish-${randomUUID()}`;
    const request = enqueueRequest({ queue });
    await driver.enqueue(request);
    const [claimed] = await claimAll(queue);
    await driver.ack(request.id, claimed!.claim);
    expect(await driver.enqueue(request)).toEqual({ id: request.id, runId: request.runId, deduped: true });
    const sameKey = enqueueRequest({ queue, idempotencyKey: request.idempotencyKey });
    expect(await driver.enqueueMany([sameKey])).toEqual([
      { id: sameKey.id, runId: sameKey.runId, deduped: false },
    ]);
  });

  it("writes a batch request carrying onConflict: 'error' like any other (the field is not read)", async () => {
    const request = enqueueRequest({ onConflict: 'error' });
    expect(await driver.enqueueMany([request])).toEqual([
      { id: request.id, runId: request.runId, deduped: false },
    ]);
    expect((await driver.introspect.get(request.id))?.state).toBe('ready');
  });
});

describe('claim and ack', () => {
  it('claims in one statement across queues, best first, skipping paused queues', async () => {
    const [a, b, paused] = ['a', 'b', 'p'].map((name) => `${name}-${randomUUID()}`) as [
      string,
      string,
      string,
    ];
    const now = driver.now();
    await driver.enqueueMany([
      enqueueRequest({ queue: a, priority: 0, idempotencyKey: 'a0' }),
      enqueueRequest({ queue: b, priority: 5, idempotencyKey: 'b5' }),
      enqueueRequest({ queue: a, priority: 5, runAt: now - 10_000, idempotencyKey: 'a5-old' }),
      enqueueRequest({ queue: paused, priority: 9, idempotencyKey: 'p9' }),
      enqueueRequest({ queue: b, priority: 9, runAt: now + 60_000, idempotencyKey: 'b9-later' }),
    ]);
    await driver.introspect.pause(paused);
    sent.length = 0;
    const claimed = await counted.claim({
      queues: [a, b, paused],
      limit: 10,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(sent).toHaveLength(1);
    expect(claimed.map((job) => job.idempotencyKey)).toEqual(['a5-old', 'b5', 'a0']);
    expect(new Set(claimed.map((job) => job.claim.token)).size).toBe(3);
    expect(claimed.every((job) => job.attempt === 1 && job.claim.workerId === 'w')).toBe(true);
  });

  it('acks of one turn go out as one statement, each fenced on its own token', async () => {
    const queue = `acks-${randomUUID()}`;
    await driver.enqueueMany(Array.from({ length: 50 }, () => enqueueRequest({ queue })));
    const claimed = await claimAll(queue);
    sent.length = 0;
    const stale = { ...claimed[0]!.claim, token: 'not-the-token' };
    const answers = await Promise.all([
      counted.ack(claimed[0]!.id, stale),
      ...claimed.map((job) => counted.ack(job.id, job.claim, { id: job.id })),
      counted.ack(claimed[1]!.id, claimed[1]!.claim),
    ]);
    expect(sent).toHaveLength(1);
    expect(answers[0]).toBe(false);
    expect(answers.slice(1, 51)).toEqual(claimed.map(() => true));
    expect(answers[51]).toBe(false);
    const stats = (await driver.stats()).find((entry) => entry.queue === queue);
    expect(stats?.counts).toMatchObject({ done: 50, running: 0 });
  });

  it('hand-backs of one turn go out as one statement, each fenced, and come back claimable uncounted', async () => {
    const queue = `releases-${randomUUID()}`;
    await driver.enqueueMany(Array.from({ length: 20 }, () => enqueueRequest({ queue })));
    const claimed = await claimAll(queue);
    expect(await driver.start(claimed[0]!.id, claimed[0]!.claim, 60_000)).toBe(true);
    sent.length = 0;
    const later = Date.now() + 3_600_000;
    const stale = { ...claimed[1]!.claim, token: 'not-the-token' };
    const answers = await Promise.all([
      counted.nack(claimed[1]!.id, stale, { kind: 'release' }),
      ...claimed.map((job, i) =>
        counted.nack(job.id, job.claim, i === 2 ? { kind: 'release', runAt: later } : { kind: 'release' }),
      ),
      counted.nack(claimed[3]!.id, claimed[3]!.claim, { kind: 'release' }),
    ]);
    expect(sent).toHaveLength(1);
    expect(answers).toEqual([false, ...claimed.map(() => true), false]);
    const again = await claimAll(queue);
    expect(again).toHaveLength(19);
    expect(again.map((job) => job.id)).not.toContain(claimed[2]!.id);
    // The started attempt was handed back uncounted: every row is on its first attempt again.
    expect(again.every((job) => job.attempt === 1)).toBe(true);
    const stats = (await driver.stats()).find((entry) => entry.queue === queue);
    expect(stats?.counts).toMatchObject({ running: 19, delayed: 1 });
  });
});

describe('retention', () => {
  it('purge deletes done rows finished before doneBefore with their steps; dead rows stay', async () => {
    const queue = `purge-${randomUUID()}`;
    const [done, dead] = [enqueueRequest({ queue }), enqueueRequest({ queue })];
    await driver.enqueueMany([done, dead]);
    const claimed = await claimAll(queue);
    for (const job of claimed) {
      await driver.steps.save(
        { jobId: job.id, runId: job.runId, claim: job.claim },
        {
          name: 's',
          position: 0,
          status: 'completed',
          output: 1,
          error: null,
          startedAt: driver.now(),
          completedAt: driver.now(),
        },
      );
    }
    const byId = new Map(claimed.map((job) => [job.id, job]));
    await driver.ack(done.id, byId.get(done.id)!.claim);
    await driver.nack(dead.id, byId.get(dead.id)!.claim, {
      kind: 'dead',
      error: { code: 'E', message: 'x' },
      stopReason: 'terminal',
    });
    expect(driver.doneRetentionMs).toBe(7 * 24 * 60 * 60 * 1000);
    expect(await driver.introspect.purge({ doneBefore: driver.now() - driver.doneRetentionMs })).toBe(0);
    expect(await driver.introspect.purge({ doneBefore: driver.now() + 1000 })).toBeGreaterThanOrEqual(1);
    expect(await driver.introspect.get(done.id)).toBeNull();
    expect(await driver.steps.load(done.runId)).toEqual([]);
    expect((await driver.introspect.get(dead.id))?.state).toBe('dead');
    expect(await driver.steps.load(dead.runId)).toHaveLength(1);
  });

  it('purge walks a backlog larger than its batch in passes until every done row past the cutoff is gone', async () => {
    const queue = `purge-many-${randomUUID()}`;
    // 12,000 done rows finished two days ago (three passes of 5,000), one finished just now.
    await adminQuery(
      `insert into "${schema}".job_history (id, seq, run_id, name, queue, state, payload, idempotency_key,
         priority, attempts, max_attempts, enqueued_at, run_at, started_at, finished_at)
       select gen_random_uuid()::text, g, gen_random_uuid()::text, 'noop', $1, 'done', '{}', g::text, 0, 1, 3,
         now() - interval '2 days', now() - interval '2 days', now() - interval '2 days',
         now() - interval '2 days' + g * interval '1 ms'
       from generate_series(1, 12000) g`,
      [queue],
    );
    const fresh = enqueueRequest({ queue });
    await driver.enqueue(fresh);
    const [job] = await claimAll(queue);
    await driver.ack(fresh.id, job!.claim);
    expect(await driver.introspect.purge({ doneBefore: driver.now() - 24 * 60 * 60 * 1000 })).toBe(12_000);
    const left = await adminQuery<{ n: number }>(
      `select count(*)::int as n from "${schema}".job_history where queue = $1`,
      [queue],
    );
    expect(left[0]?.n).toBe(1);
    expect((await driver.introspect.get(fresh.id))?.state).toBe('done');
  });
});

describe('connections', () => {
  it('runs on a pool you own (which close leaves open) with wake', async () => {
    const own = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    const onPool = postgresJobDriver({ pool: own }, { schema, migrate: false });
    const queue = `pool-${randomUUID()}`;
    const heard: string[] = [];
    await onPool.ready();
    onPool.wake!.subscribe((woken) => heard.push(woken));
    await onPool.enqueue(enqueueRequest({ queue }));
    await expect.poll(() => heard, { timeout: 10_000 }).toContain(queue);
    await onPool.close();
    expect((await own.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await own.end();
  });

  it('runs the hot statements as named prepared statements on a pool, unless told not to', async () => {
    const prepared = async (preparedStatements: boolean): Promise<number> => {
      const one = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
      const onOne = postgresJobDriver(
        { pool: one },
        { schema, migrate: false, wake: false, preparedStatements },
      );
      await onOne.claim({
        queues: [`prepared-${randomUUID()}`],
        limit: 1,
        workerId: 'w',
        visibilityTimeoutMs: 1000,
      });
      const { rows } = await one.query(
        `select count(*)::int as n from pg_prepared_statements where name like 'x_jobs_%'`,
      );
      await onOne.close();
      await one.end();
      return rows[0].n as number;
    };
    expect(await prepared(true)).toBeGreaterThanOrEqual(1);
    expect(await prepared(false)).toBe(0);
  });

  it('has no wake over a Kysely instance unless told where to LISTEN', async () => {
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const silent = postgresJobDriver({ db }, { schema, migrate: false });
    const listening = postgresJobDriver({ db, listen: DATABASE_URL }, { schema, migrate: false });
    expect(silent.wake).toBeUndefined();
    expect(listening.wake).toBeDefined();
    await Promise.all([silent.close(), listening.close()]);
  });

  it('refuses bad options with X_PG_OPTIONS_INVALID', () => {
    for (const bad of [
      () => postgresJobDriver({ connectionString: '' }),
      () => postgresJobDriver({ connectionString: DATABASE_URL }, { doneRetentionMs: 0 }),
    ]) {
      expect(bad).toThrow(expect.objectContaining({ code: 'X_PG_OPTIONS_INVALID' }));
    }
  });

  it('refuses a bad queues option with X_QUEUE_OPTIONS_INVALID before connecting', () => {
    const bad = { fair: { fairness: 'round-robin' } } as never;
    expect(() => postgresJobDriver({ connectionString: DATABASE_URL }, { queues: bad })).toThrow(
      expect.objectContaining({ code: 'X_QUEUE_OPTIONS_INVALID' }),
    );
  });

  it("answers the database's clock from now()", async () => {
    const before = driver.now();
    const [row] = await adminQuery<{ ms: number }>(
      'select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms',
    );
    const after = driver.now();
    expect(row!.ms).toBeGreaterThanOrEqual(before - 5);
    expect(row!.ms).toBeLessThanOrEqual(after + 5);
  });
});
