import { Logger, makeWorkerUtils, run, type WorkerUtils } from 'graphile-worker';
import { ensureDatabase } from '../databases.js';
import { BENCH_DATABASES, databaseUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchPayload, BenchSystem, StartWorkerOptions } from '../system.js';

const TASK = 'bench';

/** Errors only: graphile-worker logs one info line per job otherwise. */
const logger = new Logger(() => (level, message) => {
  if (level === 'error') console.error(`graphile-worker: ${message}`);
});

/**
 * The batching settings of graphile-worker's performance page: a local queue that locks and
 * pulls jobs in batches, and batched completion/failure (delay 0: flush on the next tick).
 * Its published benchmark uses a local queue of 500 with 24 concurrent jobs and a pool of 25.
 */
function workerPreset(concurrency: number): GraphileConfig.Preset {
  return {
    worker: {
      connectionString: databaseUrl(BENCH_DATABASES.graphile),
      concurrentJobs: concurrency,
      // The documented sizing is max(10, concurrency + 2); capped so c=50 stays inside a shared server.
      maxPoolSize: Math.min(Math.max(10, concurrency + 2), 25),
      localQueue: { size: 500 },
      completeJobBatchDelay: 0,
      failJobBatchDelay: 0,
    },
  };
}

/** graphile-worker in its documented fastest configuration (see {@link workerPreset}). */
export function graphileWorkerSystem(): BenchSystem {
  const connectionString = databaseUrl(BENCH_DATABASES.graphile);
  let utils: WorkerUtils | null = null;
  const worker = (): WorkerUtils => {
    if (!utils) throw new Error('graphile-worker: setup() first');
    return utils;
  };

  return {
    name: 'graphile-worker',
    backend: 'pg',
    versions: { 'graphile-worker': installedVersion('graphile-worker') },
    async setup() {
      await ensureDatabase(BENCH_DATABASES.graphile);
      utils = await makeWorkerUtils({ connectionString, logger });
      await utils.migrate();
    },
    async reset() {
      await worker().withPgClient((client) =>
        client.query('TRUNCATE graphile_worker._private_jobs, graphile_worker._private_job_queues CASCADE'),
      );
    },
    async enqueueBulk(payloads) {
      await worker().addJobs(payloads.map((payload) => ({ identifier: TASK, payload })));
    },
    async enqueueOne(payload) {
      await worker().addJob(TASK, payload);
    },
    async startWorker({ concurrency, onJob }: StartWorkerOptions) {
      const runner = await run({
        noHandleSignals: true,
        logger,
        taskList: { [TASK]: async (payload) => onJob(payload as BenchPayload) },
        preset: workerPreset(concurrency),
      });
      return { stop: () => runner.stop() };
    },
    async pending() {
      const result = await worker().withPgClient((client) =>
        client.query<{ n: string }>('SELECT count(*) AS n FROM graphile_worker.jobs'),
      );
      return Number(result.rows[0]?.n ?? 0);
    },
    async close() {
      await utils?.release();
      utils = null;
    },
  };
}
