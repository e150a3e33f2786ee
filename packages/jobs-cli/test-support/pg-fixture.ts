import { randomUUID } from 'node:crypto';
import type { JobDriver, JsonValue, StepRecord } from '@x/jobs-core';
import type { ClaimedJob, EnqueueRequest } from '@x/jobs-core/driver';
import { migrate, postgresJobDriver } from '@x/jobs-driver-pg';
import pg from 'pg';
import { type CliRun, type RunOptions, runCli } from './run-cli.js';

/** The PostgreSQL the tests use: `DATABASE_URL`, or the local default. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh schema on the test database, a driver on it, and the binary pointed at it. */
export interface PgFixture {
  readonly url: string;
  readonly schema: string;
  readonly driver: JobDriver;
  /** Runs `x-jobs` with `DATABASE_URL` and `X_JOBS_SCHEMA` set to this fixture. */
  cli(args: readonly string[], options?: RunOptions): Promise<CliRun>;
  /** Writes a job row as core would (unique ids; the rest defaulted). */
  enqueue(fields: Partial<EnqueueRequest> & Pick<EnqueueRequest, 'name' | 'queue'>): Promise<string>;
  /** Claims the one due row of `queue` and starts its attempt (a test gives each row its own queue). */
  claim(queue: string): Promise<ClaimedJob>;
  /** Records a step of a claimed job. */
  saveStep(
    job: ClaimedJob,
    step: Partial<StepRecord> & Pick<StepRecord, 'name' | 'position' | 'status'>,
  ): Promise<void>;
  /** Drops the schema and closes the driver. */
  drop(): Promise<void>;
}

/**
 * Creates a schema with a random name, migrated, for one test file. Fails loudly when PostgreSQL
 * is not reachable: these tests need the real service.
 */
export async function pgFixture(): Promise<PgFixture> {
  const schema = `x_cli_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const connection = { connectionString: DATABASE_URL, max: 2 };
  await migrate(connection, { schema });
  const driver = postgresJobDriver(connection, { schema, migrate: false });
  return {
    url: DATABASE_URL,
    schema,
    driver,
    cli: (args, options = {}) =>
      runCli(args, { ...options, env: { DATABASE_URL, X_JOBS_SCHEMA: schema, ...options.env } }),
    async enqueue(fields) {
      const id = randomUUID();
      const result = await driver.enqueue({
        id,
        runId: randomUUID(),
        payload: {} as JsonValue,
        tenantId: null,
        idempotencyKey: randomUUID(),
        priority: 0,
        maxAttempts: 3,
        ...fields,
      });
      return result.id;
    },
    async claim(queue) {
      const [job] = await driver.claim({
        queues: [queue],
        limit: 1,
        workerId: 'test',
        visibilityTimeoutMs: 60_000,
      });
      if (job === undefined) throw new Error(`nothing to claim on ${queue}`);
      if (!(await driver.start(job.id, job.claim, 60_000))) throw new Error(`could not start ${job.id}`);
      return job;
    },
    async saveStep(job, step) {
      const now = driver.now();
      await driver.steps.save(
        { jobId: job.id, runId: job.runId, claim: job.claim },
        { output: null, error: null, startedAt: now, completedAt: null, ...step },
      );
    },
    async drop() {
      await driver.close();
      await dropSchema(schema);
    },
  };
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
