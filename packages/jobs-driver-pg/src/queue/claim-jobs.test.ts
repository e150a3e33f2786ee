import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import { migrate } from '../migrate.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import type { PostgresJobDriver } from '../sql-job-driver.js';

const schema = scratchSchemaName('claim_acks');
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 3 });
/** Every statement the driver sent, through Kysely's log. */
const sent: string[] = [];
let driver: PostgresJobDriver;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query.sql);
    },
  });
  driver = postgresJobDriver({ db }, { schema, migrate: false });
  await driver.ready();
});
afterAll(async () => {
  await driver.close();
  await pool.end();
  await dropSchema(schema);
});

const claim = (queue: string, limit: number, visibilityTimeoutMs = 60_000) =>
  driver.claim({ queues: [queue], limit, workerId: 'w', visibilityTimeoutMs });

const counts = async (queue: string) => (await driver.stats()).find((entry) => entry.queue === queue)?.counts;

describe('acks ride on the next claim', () => {
  it('acks pending when a claim goes out land in its statement, each fenced on its own token', async () => {
    const queue = `ride-${randomUUID()}`;
    await driver.enqueueMany(Array.from({ length: 5 }, () => enqueueRequest({ queue })));
    const [first, second, third] = await claim(queue, 3);
    sent.length = 0;
    const acks = [
      driver.ack(first!.id, first!.claim, { n: 1 }),
      driver.ack(second!.id, { ...second!.claim, token: 'not-the-token' }),
      driver.ack(third!.id, third!.claim),
      driver.ack(third!.id, third!.claim),
    ];
    const next = await claim(queue, 10);
    expect(sent).toHaveLength(1);
    expect(await Promise.all(acks)).toEqual([true, false, true, false]);
    expect(next).toHaveLength(2);
    expect(await driver.introspect.get(first!.id)).toMatchObject({ state: 'done', result: { n: 1 } });
    expect(await counts(queue)).toMatchObject({ done: 2, running: 3 });
  });

  it('a row acked in the statement is not claimed back by it, even with its lease lapsed', async () => {
    const queue = `lapsed-${randomUUID()}`;
    const request = enqueueRequest({ queue });
    await driver.enqueueMany([request]);
    const [held] = await claim(queue, 1, 1);
    const lapsed = async () =>
      ((await driver.introspect.get(request.id))?.leaseExpiresAt ?? 0) < driver.now();
    await expect.poll(lapsed).toBe(true);
    sent.length = 0;
    const acked = driver.ack(held!.id, held!.claim);
    const next = await claim(queue, 10);
    expect(sent).toHaveLength(1);
    expect(await acked).toBe(true);
    expect(next).toEqual([]);
    expect(await counts(queue)).toMatchObject({ done: 1, running: 0 });
  });

  it('acks left when no claim comes go out by themselves', async () => {
    const queue = `alone-${randomUUID()}`;
    await driver.enqueueMany([enqueueRequest({ queue }), enqueueRequest({ queue })]);
    const claimed = await claim(queue, 2);
    sent.length = 0;
    expect(await Promise.all(claimed.map((job) => driver.ack(job.id, job.claim)))).toEqual([true, true]);
    expect(sent).toHaveLength(1);
    expect(await counts(queue)).toMatchObject({ done: 2 });
  });

  it('a claim that fails fails the acks it carried, which stay unlanded', async () => {
    const queue = `fails-${randomUUID()}`;
    const request = enqueueRequest({ queue });
    await driver.enqueueMany([request]);
    const [held] = await claim(queue, 1);
    const acked = driver.ack(held!.id, held!.claim);
    const failed = driver.claim({
      queues: ['bad\u0000queue'],
      limit: 1,
      workerId: 'w',
      visibilityTimeoutMs: 1,
    });
    await expect(failed).rejects.toMatchObject({ code: expect.stringMatching(/^X_/) });
    await expect(acked).rejects.toMatchObject({ code: expect.stringMatching(/^X_/) });
    expect(await driver.introspect.get(request.id)).toMatchObject({ state: 'running' });
  });
});
