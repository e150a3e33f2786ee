import { Redis } from 'ioredis';
import { BENCH_REDIS_DBS, redisOptions } from '../endpoints.js';
import { installedVersion } from '../package-version.js';
import type { BenchPayload, BenchSystem, RunningWorker, StartWorkerOptions } from '../system.js';
import { PrefetchPump, type PumpSource } from './prefetch-pump.js';

const KEY = 'raw:jobs';
/** Values per LPUSH command in a bulk enqueue pipeline. */
const PUSH_CHUNK = 1000;
/** Seconds an idle worker blocks in BRPOP before it polls again. */
const BLOCK_SECONDS = 1;

/**
 * The Redis limit: a list, pipelined LPUSH to enqueue, RPOP with a count to take a batch, BRPOP to
 * wait when empty. No ack, no retry, no visibility: the least work any queue on Redis can do.
 */
export function rawRedisSystem(): BenchSystem {
  const connection = redisOptions(BENCH_REDIS_DBS.rawRedis);
  let client: Redis | null = null;
  const redis = (): Redis => {
    if (!client) throw new Error('raw-redis: setup() first');
    return client;
  };

  return {
    name: 'raw-redis',
    backend: 'redis',
    versions: { ioredis: installedVersion('ioredis') },
    async setup() {
      client = new Redis(connection);
      await client.ping();
    },
    async reset() {
      await redis().flushdb();
    },
    async enqueueBulk(payloads) {
      const pipeline = redis().pipeline();
      for (let start = 0; start < payloads.length; start += PUSH_CHUNK) {
        const chunk = payloads.slice(start, start + PUSH_CHUNK).map((payload) => JSON.stringify(payload));
        pipeline.lpush(KEY, ...chunk);
      }
      await pipeline.exec();
    },
    async enqueueOne(payload) {
      await redis().lpush(KEY, JSON.stringify(payload));
    },
    startWorker: (options) => startRawRedisWorker(connection, options),
    async pending() {
      return redis().llen(KEY);
    },
    async close() {
      client?.disconnect();
      client = null;
    },
  };
}

async function startRawRedisWorker(
  connection: ReturnType<typeof redisOptions>,
  options: StartWorkerOptions,
): Promise<RunningWorker> {
  const client = new Redis(connection);
  const blocking = new Redis(connection);
  await Promise.all([client.ping(), blocking.ping()]);
  const parse = (value: string): BenchPayload => JSON.parse(value) as BenchPayload;

  const source: PumpSource<BenchPayload> = {
    async fetch(max) {
      const values = await client.rpop(KEY, max);
      return values ? values.map(parse) : [];
    },
    async idle() {
      const popped = await blocking.brpop(KEY, BLOCK_SECONDS).catch(() => null);
      return popped ? [parse(popped[1])] : [];
    },
    interrupt() {
      blocking.disconnect();
    },
    async release(jobs) {
      await client.rpush(KEY, ...jobs.map((job) => JSON.stringify(job)).reverse());
    },
  };
  const pump = new PrefetchPump(source, {
    concurrency: options.concurrency,
    batch: Math.max(100, options.concurrency * 4),
    run: options.onJob,
  });
  return {
    async stop() {
      await pump.stop();
      client.disconnect();
    },
  };
}
