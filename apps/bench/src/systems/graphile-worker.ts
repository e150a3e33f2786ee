import { ensureDatabase } from '../databases.js';
import { BENCH_DATABASES, databaseUrl } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchPayload, BenchSystem, StartWorkerOptions } from '../system.js';

type GraphileWorker = typeof import('graphile-worker');
type WorkerUtils = import('graphile-worker').WorkerUtils;

const TASK = 'bench';

/** The two releases the bench measures: the current one and the one earlier runs compared with. */
export type GraphileRelease = 'graphile-worker' | 'graphile-worker-0.17';

const DATABASES: Readonly<Record<GraphileRelease, string>> = {
  'graphile-worker': BENCH_DATABASES.graphile,
  'graphile-worker-0.17': BENCH_DATABASES.graphile017,
};

/**
 * The batching settings of graphile-worker's performance page: a local queue that locks and
 * pulls jobs in batches, and batched completion/failure (delay 0: flush on the next tick).
 * Its published benchmark uses a local queue of 500 with 24 concurrent jobs and a pool of 25.
 */
function workerPreset(connectionString: string, concurrency: number): GraphileConfig.Preset {
  return {
    worker: {
      connectionString,
      concurrentJobs: concurrency,
      // The documented sizing is max(10, concurrency + 2); capped so c=50 stays inside a shared server.
      maxPoolSize: Math.min(Math.max(10, concurrency + 2), 25),
      localQueue: { size: 500 },
      completeJobBatchDelay: 0,
      failJobBatchDelay: 0,
    },
  };
}

/**
 * graphile-worker in its documented fastest configuration (see {@link workerPreset}), from the
 * package `release` names (`graphile-worker-0.17` is an npm alias of 0.17.3), on its own database.
 */
export async function graphileWorkerSystem(release: GraphileRelease): Promise<BenchSystem> {
  const lib = (await import(release)) as GraphileWorker;
  const database = DATABASES[release];
  const connectionString = databaseUrl(database);
  /** Errors only: graphile-worker logs one info line per job otherwise. */
  const logger = new lib.Logger(() => (level, message) => {
    if (level === 'error') console.error(`${release}: ${message}`);
  });
  let utils: WorkerUtils | null = null;
  const worker = (): WorkerUtils => {
    if (!utils) throw new Error(`${release}: setup() first`);
    return utils;
  };

  return {
    name: release,
    backend: 'pg',
    database,
    hotTables: ['graphile_worker._private_jobs'],
    versions: { [release]: installedVersion(release) },
    async setup() {
      await ensureDatabase(database);
      utils = await lib.makeWorkerUtils({ connectionString, logger });
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
      const runner = await lib.run({
        noHandleSignals: true,
        logger,
        taskList: { [TASK]: async (payload) => onJob(payload as BenchPayload) },
        preset: workerPreset(connectionString, concurrency),
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
