// The four-line certification file of the conformance README on Redis Cluster: a caller-owned
// Cluster client (the driver takes a client or a url) and a key prefix of its own, both cleaned up.
import { afterAll, beforeAll } from 'vitest';
import { clusterClient, deleteClusterPrefix, requireCluster } from './cluster-fixture.js';
import { uniquePrefix } from './redis-fixture.js';

const cluster = clusterClient();
const prefix = uniquePrefix('cluster-four-lines');
beforeAll(() => requireCluster(cluster));
afterAll(async () => {
  await deleteClusterPrefix(cluster, prefix);
  cluster.disconnect();
});

// The four lines:
import { jobDriverConformance } from '@x/jobs-conformance';
import { redisJobDriver } from '@x/jobs-driver-redis';

jobDriverConformance({
  name: 'redis cluster (the four-line file)',
  create: () => redisJobDriver({ client: cluster, prefix }),
});
