import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from '../../test/database-url.js';
import { enqueueRequest } from '../../test/enqueue-request.js';
import { dropSchema, scratchSchemaName } from '../../test/scratch-schema.js';
import { migrate } from '../migrate.js';
import { postgresJobDriver } from '../postgres-job-driver.js';
import { bindSchema } from '../schema-name.js';
import { SQL_ACK_MANY, SQL_ACK_MANY_DROP } from '../sql/ack.sql.js';
import { SQL_NACK_RELEASE_MANY } from '../sql/nack.sql.js';
import { SQL_START_MANY } from '../sql/start.sql.js';
import type { PostgresJobDriver } from '../sql-job-driver.js';

const schema = scratchSchemaName('settle_plans');
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
let driver: PostgresJobDriver;

/**
 * A backlog whose sequential read the planner prices below 500 primary-key probes (≈ 1,800 against
 * ≈ 3,300): the old join of the batch with `jobs` then read the whole table per batch.
 */
const BACKLOG = 20_000;
const BATCH = 500;

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of a JSON plan that reads `jobs`, by its node type. */
function jobsScans(node: PlanNode): string[] {
  const own = node['Relation Name'] === 'jobs' ? [node['Node Type']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(jobsScans)];
}

beforeAll(async () => {
  await migrate({ connectionString: DATABASE_URL }, { schema });
  driver = postgresJobDriver({ pool }, { schema, migrate: false, wake: false });
  await driver.ready();
  for (let done = 0; done < BACKLOG; done += 1000) {
    await driver.enqueueMany(Array.from({ length: 1000 }, () => enqueueRequest()));
  }
  // Statistics taken while nothing runs: what autovacuum sees of a fresh backlog.
  await pool.query(`analyze "${schema}".jobs`);
}, 120_000);
afterAll(async () => {
  await driver.close();
  await pool.end();
  await dropSchema(schema);
});

describe('batched settles on a deep backlog', () => {
  it('probe the batch rows by primary key and never read the whole of jobs', async () => {
    const claimed = await driver.claim({
      queues: ['default'],
      limit: BATCH,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(claimed).toHaveLength(BATCH);
    const ids = claimed.map((job) => job.id);
    const tokens = claimed.map((job) => job.claim.token);
    const statements: ReadonlyArray<readonly [string, readonly unknown[]]> = [
      [SQL_ACK_MANY, [ids, tokens, ids.map(() => 'null')]],
      [SQL_ACK_MANY_DROP, [ids, tokens, ids.map(() => null)]],
      [SQL_START_MANY, [ids, tokens, ids.map(() => 60_000)]],
      [SQL_NACK_RELEASE_MANY, [ids, tokens, ids.map(() => null)]],
    ];
    for (const [statement, params] of statements) {
      const { rows } = await pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `explain (format json) ${bindSchema(statement, schema)}`,
        [...params],
      );
      const scans = jobsScans(rows[0]?.['QUERY PLAN'][0]?.Plan as PlanNode);
      expect(scans.length).toBeGreaterThan(0);
      expect(scans).not.toContain('Seq Scan');
      expect(scans).not.toContain('Bitmap Heap Scan');
    }
  });
});
