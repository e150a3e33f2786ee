import { Cluster } from 'ioredis';

/**
 * The three-master Redis Cluster `tooling/scripts/services.sh` starts on loopback
 * (`REDIS_CLUSTER_NODES`, comma-separated `host:port`; default 127.0.0.1:7101–7103).
 */
export const CLUSTER_NODES = (
  process.env.REDIS_CLUSTER_NODES ?? '127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103'
)
  .split(',')
  .map((node) => {
    const [host = '127.0.0.1', port = '0'] = node.trim().split(':');
    return { host, port: Number(port) };
  });

/** A Cluster client shaped as the driver README asks of a caller-owned client (no offline queue once ready). */
export function clusterClient(): Cluster {
  const cluster = new Cluster(CLUSTER_NODES, {
    enableOfflineQueue: true,
    enableReadyCheck: true,
    redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 2000 },
    clusterRetryStrategy: (attempt) => (attempt > 5 ? null : 200),
  });
  cluster.on('error', () => {});
  return cluster;
}

/** Fails loudly, naming the nodes, when the tests' Cluster is not up with every slot served. */
export async function requireCluster(cluster: Cluster): Promise<void> {
  try {
    const info = String(await cluster.cluster('INFO'));
    if (!info.includes('cluster_state:ok')) throw new Error(`CLUSTER INFO says: ${info.split('\n')[0]}`);
    const masters = cluster.nodes('master');
    if (masters.length < 3) throw new Error(`${masters.length} masters answered, 3 expected`);
  } catch (error) {
    throw new Error(
      `The Redis Cluster tests need a 3-master cluster at ${CLUSTER_NODES.map((n) => `${n.host}:${n.port}`).join(',')} ` +
        '(start it with tooling/scripts/services.sh, or set REDIS_CLUSTER_NODES).',
      { cause: error },
    );
  }
}

/** The `host:port` of the master that serves `key`'s slot. */
export async function masterOf(cluster: Cluster, key: string): Promise<string> {
  const slot = Number(await cluster.cluster('KEYSLOT', key));
  const slots = await cluster.cluster('SLOTS');
  const master = slots.find(([from, to]) => slot >= from && slot <= to)?.[2];
  if (master === undefined) throw new Error(`no master serves slot ${slot}`);
  return `${master[0]}:${master[1]}`;
}

/** Deletes every key of `prefix` on whichever master holds its hash tag. */
export async function deleteClusterPrefix(cluster: Cluster, prefix: string): Promise<void> {
  const address = await masterOf(cluster, `{${prefix}}`);
  const node = cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === address);
  if (node === undefined) throw new Error(`master ${address} is not among the client's nodes`);
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await node.del(...keys);
  } while (cursor !== '0');
}
