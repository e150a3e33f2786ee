import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { ensureDatabase } from '../databases.js';
import { BENCH_DATABASES, databaseUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchPayload, BenchSystem, StartWorkerOptions } from '../system.js';

const QUEUE = 'bench';

/**
 * Jobs fetched per poll by one of pg-boss's workers. pg-boss's fast path is batch fetch: a
 * worker takes `batchSize` jobs per query and completes them in one statement.
 */
const BATCH_SIZE = 500;

/**
 * pg-boss 12, one instance per process, in the configuration its worker docs give for
 * throughput and latency: `localConcurrency` = c workers on the queue, each fetching
 * {@link BATCH_SIZE} jobs per query and completing them in one statement; `burstWhenBatchFull`
 * (fetch again at once while batches come back full); LISTEN/NOTIFY on (`useListenNotify` on the
 * instance, `notify` on the queue) so an idle worker wakes on an insert instead of its poll, with
 * polling at its 0.5 s floor as the fallback.
 */
export function pgBossSystem(): BenchSystem {
  const connectionString = databaseUrl(BENCH_DATABASES.pgboss);
  let instance: PgBoss | null = null;
  let admin: pg.Pool | null = null;
  const boss = (): PgBoss => {
    if (!instance) throw new Error('pg-boss: setup() first');
    return instance;
  };
  const sql = (): pg.Pool => {
    admin ??= new pg.Pool({ connectionString, max: 1 });
    return admin;
  };

  return {
    name: 'pg-boss',
    backend: 'pg',
    database: BENCH_DATABASES.pgboss,
    hotTables: ['pgboss.job'],
    versions: { 'pg-boss': installedVersion('pg-boss') },
    async setup() {
      await ensureDatabase(BENCH_DATABASES.pgboss);
      instance = new PgBoss({ connectionString, schedule: false, useListenNotify: true });
      instance.on('error', (error) => console.error('pg-boss:', error));
      await instance.start();
      if (!(await instance.getQueue(QUEUE))) await instance.createQueue(QUEUE, { notify: true });
    },
    async reset() {
      await boss().deleteAllJobs(QUEUE);
    },
    async enqueueBulk(payloads) {
      await boss().insert(
        QUEUE,
        payloads.map((data) => ({ data })),
      );
    },
    async enqueueOne(payload) {
      await boss().send(QUEUE, payload);
    },
    async startWorker({ concurrency, onJob }: StartWorkerOptions) {
      const id = await boss().work<BenchPayload>(
        QUEUE,
        {
          batchSize: BATCH_SIZE,
          localConcurrency: concurrency,
          burstWhenBatchFull: true,
          pollingIntervalSeconds: 0.5,
          notifyPollingIntervalSeconds: 0.5,
        },
        async (jobs) => {
          for (const job of jobs) await onJob(job.data);
        },
      );
      return {
        async stop() {
          await boss().offWork(QUEUE, { id, wait: true });
        },
      };
    },
    async pending() {
      // Exact, not the stats cache (`getQueue` counts are refreshed by its monitor).
      const { rows } = await sql().query<{ n: string }>(
        "SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND state < 'completed'",
        [QUEUE],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async close() {
      await instance?.stop({ graceful: true });
      await admin?.end();
      instance = null;
      admin = null;
    },
  };
}
