import { jobDriverConformance } from '@x/jobs-conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisJobDriver, redisJobDriver } from '../src/index.js';
import { clusterClient, deleteClusterPrefix, masterOf, requireCluster } from './cluster-fixture.js';
import { uniquePrefix } from './redis-fixture.js';

// One Cluster client for the file (the driver does not own it); every case gets its own prefix,
// so the cases' key spaces hash to slots all over the cluster.
const cluster = clusterClient();
const shardsUsed = new Set<string>();

beforeAll(() => requireCluster(cluster));
afterAll(() => cluster.disconnect());

jobDriverConformance({
  name: 'redis cluster',
  create: async ({ queues }) => {
    const prefix = uniquePrefix('cluster');
    shardsUsed.add(await masterOf(cluster, `{${prefix}}`));
    return redisJobDriver({ client: cluster, prefix, queues });
  },
  destroy: async (subject) => {
    const driver = subject as RedisJobDriver;
    await driver.close();
    await deleteClusterPrefix(cluster, driver.prefix);
  },
  // A second driver on the same prefix over the shared Cluster client (the driver does not own it).
  openPeer: (subject) => redisJobDriver({ client: cluster, prefix: (subject as RedisJobDriver).prefix }),
});

describe('redis cluster', () => {
  it('ran the suite on prefixes that several shards serve, every key of a prefix on its own one', async () => {
    // Vitest runs the suite's cases before this describe (registration order): by now every case
    // has created its prefix. With ~100 random prefixes over 3 masters all three serve some.
    expect(shardsUsed.size).toBeGreaterThanOrEqual(2);
    const prefixes = Array.from({ length: 12 }, () => uniquePrefix('spread'));
    const masters = new Set(await Promise.all(prefixes.map((p) => masterOf(cluster, `{${p}}`))));
    expect(masters.size).toBeGreaterThanOrEqual(2);

    // A prefix used on its own shard: a job round-trips, and every key it wrote sits on that master.
    const prefix = prefixes[0] ?? uniquePrefix('spread');
    const driver = redisJobDriver({ client: cluster, prefix });
    try {
      const queue = `q-${prefix}`;
      await driver.enqueue({
        id: `job-${prefix}`,
        runId: `run-${prefix}`,
        name: 'cluster-probe',
        queue,
        payload: { ok: true },
        tenantId: null,
        idempotencyKey: 'k',
        priority: 0,
        maxAttempts: 1,
        runAt: driver.now(),
        enqueuedBy: null,
        traceparent: null,
        onConflict: 'dedupe',
      });
      const [claimed] = await driver.claim({
        queues: [queue],
        limit: 1,
        workerId: 'w',
        visibilityTimeoutMs: 5000,
      });
      expect(claimed?.payload).toEqual({ ok: true });
      const home = await masterOf(cluster, `{${prefix}}`);
      for (const node of cluster.nodes('master')) {
        const [, keys] = await node.scan('0', 'MATCH', `{${prefix}}:*`, 'COUNT', 1000);
        if (`${node.options.host}:${node.options.port}` === home) expect(keys.length).toBeGreaterThan(0);
        else expect(keys).toEqual([]);
      }
    } finally {
      await driver.close();
      await deleteClusterPrefix(cluster, prefix);
    }
  });
});
