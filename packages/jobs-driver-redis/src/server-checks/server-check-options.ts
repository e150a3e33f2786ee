import type { JobsLogger } from '@x/jobs-core';

/** What the driver checks on every connect, and where it says what it found. */
export interface RedisServerCheckOptions {
  /**
   * Accept a server whose `maxmemory-policy` is not `noeviction`. Under any other policy Redis
   * deletes keys — acknowledged jobs among them — when memory runs out, so by default every
   * operation is refused with `X_REDIS_EVICTION_POLICY`; with `true` the driver runs and logs
   * `redis.server.eviction-policy` at warn instead. (Default: false)
   */
  readonly allowEviction?: boolean;
  /**
   * Where the driver reports the server's promises it cannot keep: `redis.server.eviction-policy`,
   * `redis.server.not-persistent` (warn, once per server per process) and `redis.server.emptied`
   * (error: the server came back without the driver's data). (Default: JSON lines on stderr)
   */
  readonly logger?: JobsLogger;
}
