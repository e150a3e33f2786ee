import { randomUUID } from 'node:crypto';
import { type AnyJobHandle, createWorker, type JobDriver, silentLogger, type Worker } from '@x/jobs-core';
import { migrate, postgresJobDriver } from '@x/jobs-driver-pg';
import pg from 'pg';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A Postgres driver on a fresh schema of its own; `drop()` closes it and drops the schema. */
export async function postgresFixture(label: string) {
  const schema = `x_jobs_test_${label}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  await migrate({ connectionString: DATABASE_URL }, { schema }).catch((error: unknown) => {
    throw new Error(`This test needs PostgreSQL at DATABASE_URL=${DATABASE_URL}.`, { cause: error });
  });
  const driver: JobDriver = postgresJobDriver(
    { connectionString: DATABASE_URL, max: 4 },
    { schema, migrate: false },
  );
  const workers: Worker[] = [];
  return {
    driver,
    schema,
    /** Starts a real worker over `jobs` (polling fast, no signal handlers). */
    async worker(jobs: readonly AnyJobHandle[]): Promise<Worker> {
      const registry = new Map(jobs.map((handle) => [handle.name, handle]));
      const worker = createWorker({
        driver,
        context: () => ({}),
        registry: { get: (name) => registry.get(name) },
        queues: [...new Set(jobs.map((handle) => handle.queue))],
        handleSignals: false,
        logger: silentLogger,
        idlePollMaxMs: 50,
      });
      workers.push(worker);
      await worker.start();
      return worker;
    },
    async drop() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await driver.close?.();
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** Polls `check` until it holds (real time, generous for a loaded machine). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
