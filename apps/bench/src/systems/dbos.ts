import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { epochNow, sleep } from '../clock.js';
import { ensureDatabase } from '../databases.js';
import { BENCH_DATABASES, databaseUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchSystem } from '../system.js';

const APP = 'x-bench';
const QUEUE = 'bench';
const WORKFLOW = 'benchStepRun';
const SCHEMA = 'dbos';
/**
 * The queue's dispatch poll. DBOS queues are polled (default 1 s); its queue docs have the
 * interval lowered where latency matters. 10 ms keeps a free slot from idling between runs
 * without turning the poll into the cost.
 */
const POLL_MS = 10;
/** Tables that hold configuration, not workflows: kept across resets. */
const KEPT_TABLES = new Set(['queues', 'application_versions']);

let onStep: (id: number) => void = () => {};

/** Run `i` of `steps` no-op DBOS steps; step `k` reports `i × steps + k`. */
async function benchStepRun(i: number, steps: number): Promise<void> {
  for (let k = 0; k < steps; k += 1) {
    await DBOS.runStep(
      async () => {
        onStep(i * steps + k);
        return k;
      },
      { name: `s${k}` },
    );
  }
}

/**
 * DBOS Transact (`@dbos-inc/dbos-sdk`), durable workflows on Postgres with no server, for W7
 * only: each run is a workflow of `DBOS.runStep` steps on a queue with `workerConcurrency` = c.
 * The runs are enqueued with `DBOSClient` while DBOS is shut down, then DBOS launches and drains
 * them, so the enqueue never competes with the drain (ours are enqueued before the worker starts
 * too).
 */
export function dbosSystem(): BenchSystem {
  const url = databaseUrl(BENCH_DATABASES.dbos);
  let admin: pg.Pool | null = null;
  const sql = (): pg.Pool => {
    admin ??= new pg.Pool({ connectionString: url, max: 1 });
    return admin;
  };
  let concurrencyRegistered = 0;
  const notAQueue = (): never => {
    throw new Error('dbos: measured on W7 only');
  };

  const launch = async (concurrency: number): Promise<void> => {
    await DBOS.launch();
    if (concurrencyRegistered !== concurrency) {
      await DBOS.registerQueue(QUEUE, {
        workerConcurrency: concurrency,
        minPollingIntervalMs: POLL_MS,
        onConflict: 'always_update',
      });
      concurrencyRegistered = concurrency;
    }
  };

  const pending = async (): Promise<number> => {
    const { rows } = await sql().query<{ n: string }>(
      `SELECT count(*) AS n FROM ${SCHEMA}.workflow_status WHERE status IN ('ENQUEUED', 'PENDING')`,
    );
    return Number(rows[0]?.n ?? 0);
  };

  const system: BenchSystem = {
    name: 'dbos',
    backend: 'pg',
    versions: { '@dbos-inc/dbos-sdk': installedVersion('@dbos-inc/dbos-sdk') },
    async setup() {
      await ensureDatabase(BENCH_DATABASES.dbos);
      DBOS.setConfig({ name: APP, systemDatabaseUrl: url, logLevel: 'error' });
      DBOS.registerWorkflow(benchStepRun, { name: WORKFLOW });
      // The first launch creates the system schema; the queue is registered then.
      await launch(10);
      await DBOS.shutdown();
    },
    reset: async () => {
      const { rows } = await sql().query<{ tablename: string }>(
        'SELECT tablename FROM pg_tables WHERE schemaname = $1',
        [SCHEMA],
      );
      const tables = rows
        .map((row) => row.tablename)
        .filter((name) => !KEPT_TABLES.has(name) && !name.includes('migration'))
        .map((name) => `${SCHEMA}.${pg.escapeIdentifier(name)}`);
      if (tables.length > 0) await sql().query(`TRUNCATE ${tables.join(', ')} CASCADE`);
    },
    enqueueBulk: notAQueue,
    enqueueOne: notAQueue,
    startWorker: notAQueue,
    pending,
    stepRunner: {
      async drainRuns(runs, steps, concurrency, report) {
        await system.reset();
        const client = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: APP });
        try {
          for (let start = 0; start < runs; start += 50) {
            const batch = Array.from({ length: Math.min(50, runs - start) }, (_, k) => start + k);
            await Promise.all(
              batch.map((i) =>
                client.enqueue<typeof benchStepRun>({ queueName: QUEUE, workflowName: WORKFLOW }, i, steps),
              ),
            );
          }
        } finally {
          await client.destroy();
        }
        let firstAt = Number.NaN;
        let ran = 0;
        onStep = (id) => {
          if (ran === 0) firstAt = epochNow();
          ran += 1;
          report(id);
        };
        await launch(concurrency);
        try {
          const deadline = Date.now() + 300_000;
          while (ran < runs * steps || (await pending()) > 0) {
            if (Date.now() > deadline) throw new Error(`dbos: ${ran} of ${runs * steps} steps after 300 s`);
            await sleep(2);
          }
          return epochNow() - firstAt;
        } finally {
          await DBOS.shutdown();
          onStep = () => {};
        }
      },
    },
    async close() {
      await admin?.end();
      admin = null;
    },
  };
  return system;
}
