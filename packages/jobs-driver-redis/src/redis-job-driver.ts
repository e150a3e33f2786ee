import { randomUUID } from 'node:crypto';
import type { JobDriver, JsonValue, QueueStats } from '@x/jobs-core';
import type {
  ClaimedJob,
  ClaimOptions,
  ClaimRef,
  EnqueueRequest,
  EnqueueResult,
  JobProgress,
  NackOptions,
} from '@x/jobs-core/driver';
import { CallBatcher } from '@x/jobs-core/driver';
import { callFlag, callScript, type DriverContext } from './driver-context.js';
import { redisError } from './errors.js';
import { flagsOf } from './flag-reply.js';
import { decodeClaimReply } from './job-codec.js';
import { DEFAULT_PREFIX, type KeySpace, keySpace } from './key-space.js';
import { ACK_MANY_SCRIPT } from './lua/ack-many.lua.js';
import { CLAIM_SCRIPT } from './lua/claim.lua.js';
import { ENQUEUE_SCRIPT } from './lua/enqueue.lua.js';
import { HEARTBEAT_SCRIPT } from './lua/heartbeat.lua.js';
import { NACK_SCRIPT } from './lua/nack.lua.js';
import { PROGRESS_SCRIPT } from './lua/progress.lua.js';
import { REDIS_SCRIPTS } from './lua/scripts.js';
import { STATS_SCRIPT } from './lua/stats.lua.js';
import type { LuaScript } from './lua-script.js';
import { optionalArg } from './optional-arg.js';
import { createStartBatch, startJob } from './queue/start.js';
import { redisBackfillLedger } from './redis-backfill-ledger.js';
import { createOwnedClient } from './redis-client.js';
import { RedisConnection } from './redis-connection.js';
import { redisEventStore } from './redis-event-store.js';
import { redisIntrospection } from './redis-introspection.js';
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_DONE_TTL_MS,
  DEFAULT_REDIS_URL,
  type RedisJobDriverOptions,
} from './redis-job-driver-options.js';
import { redisLeaseStore } from './redis-lease-store.js';
import { redisScheduleStore } from './redis-schedule-store.js';
import { redisStepStore } from './redis-step-store.js';
import { RedisWakeSource } from './redis-wake-source.js';
import { ScriptRunner } from './script-runner.js';
import { ServerChecks } from './server-checks/server-checks.js';
import { CLOCK_SYNC_INTERVAL_MS, ServerClock } from './server-clock.js';

/** Requests per enqueue script call (the contract's batch size). */
const ENQUEUE_CHUNK = 1000;

/** Acks per ack-many call, and how many such calls may be in flight at once. */
const ACK_BATCH_MAX = 500;
const ACK_BATCH_IN_FLIGHT = 1;

/** One ack waiting for its ack-many call: the row, its claim token, its result JSON. */
type PendingAck = readonly [jobId: string, token: string, result: string];

/** The Redis {@link JobDriver}, plus what it was built with: its prefix, key space and retention. */
export interface RedisJobDriver extends JobDriver {
  readonly name: 'redis';
  readonly prefix: string;
  /** Every key name the driver uses (the README's key layout), for operators and tests. */
  readonly keys: KeySpace;
  readonly doneTtlMs: number;
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
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const keys = keySpace(prefix);
  const client =
    options.client ??
    createOwnedClient(
      options.url ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
      options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    );
  const connection = new RedisConnection(client, options.client === undefined);
  const checks = new ServerChecks(client, keys, prefix, options);
  connection.gate = checks;
  const scripts = new ScriptRunner(client, keys);
  const clock = new ServerClock(client);
  const context: DriverContext = { connection, scripts, keys, clock, doneTtlMs: Math.round(doneTtlMs) };
  const wake = new RedisWakeSource(client, keys.wakeChannel, () => clock.now());

  const onReady = (): void => {
    checks.onReady();
    void clock.sync();
    void scripts.preload(Object.values(REDIS_SCRIPTS));
  };
  client.on('ready', onReady);
  if (client.status === 'ready') onReady();
  const clockTimer = setInterval(() => void clock.sync(), CLOCK_SYNC_INTERVAL_MS);
  clockTimer.unref();

  const acks = new CallBatcher<PendingAck, boolean>(
    (batch) => ackMany(context, batch),
    ACK_BATCH_MAX,
    ACK_BATCH_IN_FLIGHT,
  );
  const starts = createStartBatch(context);
  const settle = (operation: string, script: LuaScript, args: (string | number)[]) =>
    callFlag(context, operation, script, args);

  return {
    name: 'redis',
    prefix,
    keys,
    doneTtlMs: context.doneTtlMs,
    steps: redisStepStore(context),
    events: redisEventStore(context),
    introspect: redisIntrospection(context),
    leases: redisLeaseStore(context),
    schedules: redisScheduleStore(context),
    backfills: redisBackfillLedger(context),
    wake,
    now: () => clock.now(),

    async enqueue(request: EnqueueRequest): Promise<EnqueueResult> {
      const [result] = await enqueueChunk(context, 'enqueue', [request]);
      return result!;
    },

    async enqueueMany(requests: readonly EnqueueRequest[]): Promise<readonly EnqueueResult[]> {
      const results: EnqueueResult[] = [];
      for (let start = 0; start < requests.length; start += ENQUEUE_CHUNK) {
        results.push(
          ...(await enqueueChunk(context, 'enqueueMany', requests.slice(start, start + ENQUEUE_CHUNK))),
        );
      }
      if (requests.length === 0) await connection.run('enqueueMany', async () => undefined);
      return results;
    },

    async claim(claimOptions: ClaimOptions): Promise<readonly ClaimedJob[]> {
      const queues = [...new Set(claimOptions.queues)];
      const limit = Math.floor(claimOptions.limit);
      if (queues.length === 0 || !(limit >= 1)) return await connection.run('claim', async () => []);
      const reply = await callScript(context, 'claim', CLAIM_SCRIPT, [
        limit,
        Math.max(0, Math.round(claimOptions.visibilityTimeoutMs)),
        claimOptions.workerId,
        randomUUID(),
        Math.max(0, Math.trunc(claimOptions.start ?? 0)),
        ...queues,
      ]);
      return decodeClaimReply(reply, claimOptions.workerId);
    },

    start: (jobId: string, claim: ClaimRef, visibilityTimeoutMs: number) =>
      startJob(starts, jobId, claim, visibilityTimeoutMs),

    ack: (jobId: string, claim: ClaimRef, result?: JsonValue) =>
      acks.call([
        jobId,
        claim.token,
        result === undefined || result === null ? 'null' : JSON.stringify(result),
      ]),

    nack: (jobId: string, claim: ClaimRef, nackOptions: NackOptions) =>
      settle('nack', NACK_SCRIPT, [jobId, claim.token, ...nackArgs(nackOptions)]),

    heartbeat: (jobId: string, claim: ClaimRef, visibilityTimeoutMs: number) =>
      settle('heartbeat', HEARTBEAT_SCRIPT, [
        jobId,
        claim.token,
        Math.max(0, Math.round(visibilityTimeoutMs)),
      ]),

    progress: (jobId: string, claim: ClaimRef, progress: JobProgress) =>
      settle('progress', PROGRESS_SCRIPT, [
        jobId,
        claim.token,
        JSON.stringify({ current: progress.current, total: progress.total }),
      ]),

    async stats(): Promise<readonly QueueStats[]> {
      const reply = (await callScript(context, 'stats', STATS_SCRIPT, [context.doneTtlMs])) as (
        | string
        | number
      )[][];
      return reply
        .map((row) => ({
          queue: String(row[0]),
          paused: Number(row[1]) === 1,
          counts: {
            ready: Number(row[2]),
            delayed: Number(row[3]),
            running: Number(row[4]),
            suspended: Number(row[5]),
            done: Number(row[6]),
            dead: Number(row[7]),
            cancelled: Number(row[8]),
          },
          oldestReadyAgeMs: Number(row[9]) < 0 ? null : Number(row[9]),
        }))
        .sort((a, b) => a.queue.localeCompare(b.queue));
    },

    async close(): Promise<void> {
      clearInterval(clockTimer);
      client.off('ready', onReady);
      await wake.close();
      await connection.close();
    },
  };
}

async function enqueueChunk(
  context: DriverContext,
  operation: string,
  requests: readonly EnqueueRequest[],
): Promise<EnqueueResult[]> {
  const args: (string | number)[] = [requests.length];
  for (const request of requests) {
    args.push(
      request.id,
      request.runId,
      request.name,
      request.queue,
      JSON.stringify(request.payload ?? null),
      optionalArg(request.tenantId),
      request.idempotencyKey,
      String(request.priority ?? 0),
      request.runAt === undefined ? '' : Math.round(request.runAt),
      request.maxAttempts,
      request.onConflict ?? 'dedupe',
      optionalArg(request.enqueuedBy),
      optionalArg(request.traceparent),
      JSON.stringify([request.name, request.tenantId ?? null, request.idempotencyKey]),
    );
  }
  const reply = (await callScript(context, operation, ENQUEUE_SCRIPT, args)) as (string | number)[];
  const results: EnqueueResult[] = requests.map((request) => ({
    id: request.id,
    runId: request.runId,
    deduped: false,
  }));
  for (let k = 0; k + 2 < reply.length; k += 3) {
    results[Number(reply[k]) - 1] = { id: String(reply[k + 1]), runId: String(reply[k + 2]), deduped: true };
  }
  return results;
}

/** Sends the acks gathered by the batcher as one ack-many call; answers per ack, in order. */
async function ackMany(context: DriverContext, batch: readonly PendingAck[]): Promise<boolean[]> {
  const args: (string | number)[] = [context.doneTtlMs];
  for (const [jobId, token, result] of batch) args.push(jobId, token, result);
  return flagsOf(await callScript(context, 'ack', ACK_MANY_SCRIPT, args), batch.length, 'ack-many');
}

function nackArgs(options: NackOptions): (string | number)[] {
  switch (options.kind) {
    case 'retry':
      return ['retry', Math.round(options.runAt), '', optionalArg(JSON.stringify(options.error)), ''];
    case 'release':
      return ['release', options.runAt === undefined ? '' : Math.round(options.runAt), '', '', ''];
    case 'suspend':
      return ['suspend', Math.round(options.runAt), optionalArg(options.waitFor), '', ''];
    case 'dead':
      return ['dead', '', '', optionalArg(JSON.stringify(options.error)), optionalArg(options.stopReason)];
  }
}
