import type { CompleteJobDriver, JsonValue } from '@x/jobs-core';
import type {
  ClaimOptions,
  ClaimRef,
  EnqueueRequest,
  JobProgress,
  NackOptions,
  WakeSource,
} from '@x/jobs-core/driver';
import { parseQueueOptions, refuseAfterClose } from '@x/jobs-core/driver';
import type { DriverContext } from './driver-context.js';
import { redisError } from './errors.js';
import { redisIntrospection } from './introspection/create-introspection.js';
import { DEFAULT_PREFIX, type KeySpace, keySpace } from './key-space.js';
import { REDIS_SCRIPTS } from './lua/scripts.js';
import { claimJobs } from './queue/claim.js';
import { enqueueMany, enqueueOne } from './queue/enqueue.js';
import { ackJob, createAckBatch, heartbeatJob, nackJob, recordProgress } from './queue/settle.js';
import { createStartBatch, startJob } from './queue/start.js';
import { queueStats } from './queue/stats.js';
import { createOwnedClient, type RedisClient } from './redis-client.js';
import { RedisConnection } from './redis-connection.js';
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_DONE_TTL_MS,
  DEFAULT_REDIS_URL,
  type RedisJobDriverOptions,
} from './redis-job-driver-options.js';
import { checkRedisUrl } from './redis-url.js';
import { ScriptRunner } from './script-runner.js';
import { ServerChecks } from './server-checks/server-checks.js';
import { serverClock } from './server-clock.js';
import { createBackfillLedger } from './stores/backfill-ledger.js';
import { createEventStore } from './stores/event-store.js';
import { createLeaseStore } from './stores/lease-store.js';
import { createRateLimitStore } from './stores/rate-limit-store.js';
import { createScheduleStore } from './stores/schedule-store.js';
import { createStepStore } from './stores/step-store.js';
import { RedisWakeSource } from './wake/wake-source.js';

/** The Redis driver (a {@link CompleteJobDriver}: every store required), plus what it was built with: its prefix, key space and retention. */
export interface RedisJobDriver extends CompleteJobDriver {
  readonly wake: WakeSource;
  readonly name: 'redis';
  readonly prefix: string;
  /** Every key name the driver uses (the README's key layout), for operators and tests. */
  readonly keys: KeySpace;
  readonly doneTtlMs: number;
  /**
   * Connects (the first connection, at most 5 s), passes the server checks and PINGs. Rejects with
   * `X_DRIVER_AUTH_FAILED` (WRONGPASS/NOAUTH), `X_DRIVER_DATABASE_MISSING` (a db index out of
   * range) or `X_DRIVER_HOST_UNKNOWN` (ENOTFOUND), never retryable; `X_DRIVER_UNAVAILABLE` while
   * Redis is down. `worker.start()` awaits it.
   */
  ready(): Promise<void>;
}

/**
 * The Redis JobDriver on ioredis. Every operation that reads and writes is one Lua script (atomic),
 * every key of a prefix shares one `{hash tag}` (Redis Cluster-safe), time is the server's `TIME`.
 * Redis down refuses at once with `X_DRIVER_UNAVAILABLE` (nothing queued in memory) and the client
 * it creates reconnects forever; `wake` pushes new work to idle workers over pub/sub.
 */
export function redisJobDriver(options: RedisJobDriverOptions = {}): RedisJobDriver {
  const doneTtlMs = options.doneTtlMs ?? DEFAULT_DONE_TTL_MS;
  if (options.client !== undefined && options.url !== undefined) {
    throw redisError('X_REDIS_OPTIONS_INVALID', 'Pass either client or url, not both.');
  }
  if (!Number.isFinite(doneTtlMs) || doneTtlMs < 0) {
    throw redisError('X_REDIS_OPTIONS_INVALID', 'doneTtlMs must be 0 (keep) or a positive number of ms.', {
      doneTtlMs,
    });
  }
  const queues = parseQueueOptions(options.queues, 'redisJobDriver');
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const keys = keySpace(prefix);
  const setting = options.client !== undefined ? 'client' : options.url !== undefined ? 'url' : 'REDIS_URL';
  let client: RedisClient;
  if (options.client === undefined) {
    const url = options.url ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
    checkRedisUrl(url, setting);
    client = createOwnedClient(url, options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
  } else {
    client = options.client;
  }
  const connection = new RedisConnection(client, options.client === undefined, setting);
  const checks = new ServerChecks(client, keys, prefix, options);
  connection.gate = checks;
  const scripts = new ScriptRunner(client, keys);
  const clock = serverClock(client);
  const context: DriverContext = {
    connection,
    scripts,
    keys,
    clock,
    doneTtlMs: Math.round(doneTtlMs),
    queues,
  };
  const wake = new RedisWakeSource(client, keys.wakeChannel, () => clock.now(), keys.settledChannel);

  const onReady = (): void => {
    checks.onReady();
    clock.sync().catch(() => undefined);
    void scripts.preload(Object.values(REDIS_SCRIPTS));
  };
  client.on('ready', onReady);
  if (client.status === 'ready') onReady();
  clock.start();

  const acks = createAckBatch(context);
  const starts = createStartBatch(context);

  return refuseAfterClose<RedisJobDriver>({
    name: 'redis',
    prefix,
    keys,
    doneTtlMs: context.doneTtlMs,
    steps: createStepStore(context),
    events: createEventStore(context),
    introspect: redisIntrospection(context),
    leases: createLeaseStore(context),
    rateLimits: createRateLimitStore(context),
    schedules: createScheduleStore(context),
    backfills: createBackfillLedger(context),
    wake,
    now: () => clock.now(),

    enqueue: (request: EnqueueRequest) => enqueueOne(context, request),
    enqueueMany: (requests: readonly EnqueueRequest[]) => enqueueMany(context, requests),
    claim: (claimOptions: ClaimOptions) => claimJobs(context, claimOptions),
    start: (jobId: string, claim: ClaimRef, visibilityTimeoutMs: number) =>
      startJob(starts, jobId, claim, visibilityTimeoutMs),
    ack: (jobId: string, claim: ClaimRef, result?: JsonValue) => ackJob(acks, jobId, claim, result),
    nack: (jobId: string, claim: ClaimRef, nackOptions: NackOptions) =>
      nackJob(context, jobId, claim, nackOptions),
    heartbeat: (jobId: string, claim: ClaimRef, visibilityTimeoutMs: number) =>
      heartbeatJob(context, jobId, claim, visibilityTimeoutMs),
    progress: (jobId: string, claim: ClaimRef, progress: JobProgress) =>
      recordProgress(context, jobId, claim, progress),
    stats: () => queueStats(context),
    ready: () => connection.run('ready', async () => void (await client.ping())),

    async close(): Promise<void> {
      clock.stop();
      client.off('ready', onReady);
      await wake.close();
      await connection.close();
    },
  });
}
