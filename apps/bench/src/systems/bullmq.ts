import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { BENCH_REDIS_DBS, redisOptions } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchPayload, BenchSystem, StartWorkerOptions } from '../system.js';

const QUEUE = 'bench';

/**
 * BullMQ with worker concurrency (its documented way to run many jobs per process) and
 * completed jobs removed at once (its production guide: keeps Redis memory flat).
 */
export function bullmqSystem(): BenchSystem {
  const connection = redisOptions(BENCH_REDIS_DBS.bullmq);
  let producer: Queue | null = null;
  let admin: Redis | null = null;
  const queue = (): Queue => {
    if (!producer) throw new Error('bullmq: setup() first');
    return producer;
  };

  return {
    name: 'bullmq',
    backend: 'redis',
    versions: { bullmq: installedVersion('bullmq') },
    async setup() {
      producer = new Queue(QUEUE, {
        connection,
        defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
      });
      await producer.waitUntilReady();
      admin = new Redis(connection);
    },
    async reset() {
      // The db index is BullMQ's alone: emptying it is the most complete reset.
      await admin?.flushdb();
    },
    async enqueueBulk(payloads) {
      await queue().addBulk(payloads.map((data) => ({ name: QUEUE, data })));
    },
    async enqueueOne(payload) {
      await queue().add(QUEUE, payload);
    },
    async startWorker({ concurrency, onJob, leaseMs }: StartWorkerOptions) {
      const worker = new Worker<BenchPayload>(
        QUEUE,
        async (job) => {
          await onJob(job.data);
        },
        {
          connection: { ...connection, maxRetriesPerRequest: null },
          concurrency,
          ...(leaseMs === undefined ? {} : { lockDuration: leaseMs, stalledInterval: leaseMs }),
        },
      );
      worker.on('error', (error) => console.error('bullmq:', error));
      await worker.waitUntilReady();
      return { stop: () => worker.close() };
    },
    async pending() {
      const counts = await queue().getJobCounts('wait', 'active', 'delayed', 'prioritized');
      return Object.values(counts).reduce((sum, n) => sum + n, 0);
    },
    async close() {
      await producer?.close();
      admin?.disconnect();
      producer = null;
      admin = null;
    },
  };
}
