import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import { migrate } from '../migrate.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import type { PostgresJobDriver } from '../sql-job-driver.js';

const schema = scratchSchemaName('claim');
/** One connection, so the driver's prepared statements can be inspected from it. */
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
let driver: PostgresJobDriver;

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  driver = postgresJobDriver({ pool }, { schema, migrate: false, wake: false });
  await driver.ready();
});
afterAll(async () => {
  await driver.close();
  await pool.end();
  await dropSchema(schema);
});

const claim = (queue: string, limit: number) =>
  driver.claim({ queues: [queue], limit, workerId: 'w', visibilityTimeoutMs: 60_000 });

describe('claim', () => {
  it('answers the same times (epoch ms) and fields introspection reads from the row', async () => {
    const queue = `fields-${randomUUID()}`;
    const request = enqueueRequest({ queue, runAt: driver.now() - 1_234.5, priority: 3 });
    await driver.enqueueMany([request]);
    const [claimed] = await claim(queue, 5);
    const record = await driver.introspect.get(request.id);
    expect(claimed).toEqual({
      id: record?.id,
      runId: record?.runId,
      name: record?.name,
      queue,
      payload: record?.payload,
      tenantId: record?.tenantId,
      idempotencyKey: record?.idempotencyKey,
      priority: 3,
      attempt: 1,
      maxAttempts: record?.maxAttempts,
      enqueuedAt: record?.enqueuedAt,
      runAt: record?.runAt,
      leaseExpiresAt: record?.leaseExpiresAt,
      enqueuedBy: record?.enqueuedBy,
      traceparent: record?.traceparent,
      claim: { workerId: 'w', token: expect.any(String) },
      started: false,
      lapsed: false,
    });
    expect(Number.isInteger(claimed?.leaseExpiresAt)).toBe(true);
  });

  it('keeps one generic plan for its prepared statement instead of planning every call', async () => {
    const queue = `plan-${randomUUID()}`;
    await driver.enqueueMany(Array.from({ length: 8 }, () => enqueueRequest({ queue })));
    for (let i = 0; i < 8; i += 1) expect(await claim(queue, 1)).toHaveLength(1);
    const { rows } = await pool.query<{ generic_plans: string; custom_plans: string }>(
      `select generic_plans, custom_plans from pg_prepared_statements
       where statement like '%for update skip locked%' and statement like $1`,
      [`%"${schema}".jobs%`],
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.generic_plans)).toBeGreaterThanOrEqual(3);
  });
});
