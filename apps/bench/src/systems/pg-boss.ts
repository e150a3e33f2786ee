import PgBoss from 'pg-boss';
import { ensureDatabase } from '../databases.js';
import { BENCH_DATABASES, databaseUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchPayload, BenchSystem, StartWorkerOptions } from '../system.js';

const QUEUE = 'bench';

/**
 * Jobs fetched per poll by one `work()` subscription. pg-boss's fast path is batch fetch: a
 * worker takes `batchSize` jobs per query and completes them in one statement.
 */
const BATCH_SIZE = 500;

/**
 * pg-boss, one instance per process. Concurrency is one `work()` subscription per slot (v10 has
 * no in-worker concurrency option: each `work()` call adds a polling worker), each fetching
 * {@link BATCH_SIZE} jobs at a time and polling at the documented floor of 0.5 s; pg-boss has no
 * push wake, so its latency is bound to that poll.
 */
export function pgBossSystem(): BenchSystem {
  let instance: PgBoss | null = null;
  const boss = (): PgBoss => {
    if (!instance) throw new Error('pg-boss: setup() first');
    return instance;
  };

  return {
    name: 'pg-boss',
    backend: 'pg',
    versions: { 'pg-boss': installedVersion('pg-boss') },
    async setup() {
      await ensureDatabase(BENCH_DATABASES.pgboss);
      instance = new PgBoss({ connectionString: databaseUrl(BENCH_DATABASES.pgboss), schedule: false });
      instance.on('error', (error) => console.error('pg-boss:', error));
      await instance.start();
      if (!(await instance.getQueue(QUEUE))) await instance.createQueue(QUEUE);
    },
    async reset() {
      // The database is pg-boss's alone: its own storage reset (TRUNCATE of jobs and archive).
      await boss().clearStorage();
    },
    async enqueueBulk(payloads) {
      await boss().insert(payloads.map((data) => ({ name: QUEUE, data })));
    },
    async enqueueOne(payload) {
      await boss().send(QUEUE, payload);
    },
    async startWorker({ concurrency, onJob }: StartWorkerOptions) {
      const ids: string[] = [];
      for (let slot = 0; slot < concurrency; slot += 1) {
        ids.push(
          await boss().work<BenchPayload>(
            QUEUE,
            { batchSize: BATCH_SIZE, pollingIntervalSeconds: 0.5 },
            async (jobs) => {
              for (const job of jobs) await onJob(job.data);
            },
          ),
        );
      }
      return {
        async stop() {
          await Promise.all(ids.map((id) => boss().offWork({ id })));
        },
      };
    },
    async pending() {
      return (await boss().getQueueSize(QUEUE, { before: 'completed' })) ?? 0;
    },
    async close() {
      await instance?.stop({ graceful: true, wait: true });
      instance = null;
    },
  };
}
