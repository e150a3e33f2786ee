import type { QueueOptionsMap } from '@x/jobs-core/driver';
import type { Cluster, Redis } from 'ioredis';
import type { RedisServerCheckOptions } from './server-checks/server-check-options.js';

/** Options of {@link redisJobDriver}. */
export interface RedisJobDriverOptions extends RedisServerCheckOptions {
  /**
   * An ioredis client (single node or Cluster) the caller owns: the driver neither configures nor
   * quits it, and maps its failures like its own. Pass it with `enableOfflineQueue: false` to keep
   * "Redis down refuses". Exclusive with `url`.
   */
  readonly client?: Redis | Cluster;
  /** The server to connect to when no client is given. (Default: `process.env.REDIS_URL`, else `redis://127.0.0.1:6379`) */
  readonly url?: string;
  /** Every key is `{<prefix>}:…`, one hash tag, one Cluster slot. No braces. (Default: 'xjobs') */
  readonly prefix?: string;
  /** How long done rows and their steps are kept; `0` keeps them forever. Dead rows are always kept. (Default: 7 days) */
  readonly doneTtlMs?: number;
  /** Per-command deadline of the client the driver creates, in ms. (Default: 5000) */
  readonly commandTimeoutMs?: number;
  /**
   * Per-queue settings: `{ imports: { fairness: 'tenant' } }` claims `imports` with the
   * `claim-fair` script, sharing each claim fairly across tenants (see `QueueOptions` and the
   * README, Fair claiming). Give every process that claims the queue the same settings. Invalid
   * settings are `X_QUEUE_OPTIONS_INVALID`. (Default: none, every queue claimed by `claim`)
   */
  readonly queues?: QueueOptionsMap;
}

/** The default retention of done rows: 7 days. */
export const DEFAULT_DONE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The default per-command deadline of an owned client. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5000;

/** The default server when neither `client`, `url` nor `REDIS_URL` names one. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
