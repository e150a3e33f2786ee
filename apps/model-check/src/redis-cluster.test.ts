import { randomUUID } from 'node:crypto';
import { jobDriverModelCheck } from '@x/jobs-conformance';
import { type RedisJobDriver, redisJobDriver } from '@x/jobs-driver-redis';
import { Cluster } from 'ioredis';
import { afterAll } from 'vitest';
import { MODEL_CHECK_SEED, memoryModel } from './memory-model.js';

// The three-master Cluster tooling/scripts/services.sh starts; one client, a prefix per sequence.
const nodes = (process.env.REDIS_CLUSTER_NODES ?? '127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103')
  .split(',')
  .map((node) => ({ host: node.split(':')[0] ?? '127.0.0.1', port: Number(node.split(':')[1]) }));
const cluster = new Cluster(nodes, { redisOptions: { maxRetriesPerRequest: 1 } });
cluster.on('error', () => {});
afterAll(() => cluster.disconnect());

jobDriverModelCheck({
  name: 'redis cluster',
  create: () => redisJobDriver({ client: cluster, prefix: `xjobs-model-${randomUUID().slice(0, 8)}` }),
  destroy: (subject) => (subject as RedisJobDriver).close(),
  model: memoryModel,
  seed: MODEL_CHECK_SEED,
  numRuns: 60,
  maxOperations: 30,
});
