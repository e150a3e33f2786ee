import { JobsError } from '@x/jobs-core';

/**
 * Every error code @x/jobs-driver-redis declares, with its one-line meaning. The driver also
 * throws core codes: `X_DRIVER_UNAVAILABLE` (Redis unreachable; `meta.maybeApplied` says whether
 * the command may still have been applied, as after a timeout),
 * `X_DRIVER_CLOSED` (after `close()`) and `X_JOB_DUPLICATE` (a live duplicate under
 * `onConflict: 'error'`).
 */
export const REDIS_ERROR_CODES = {
  X_REDIS_OPTIONS_INVALID:
    'redisJobDriver was given invalid options (both client and url, a prefix with braces, a negative doneTtlMs).',
  X_REDIS_REPLY_INVALID: 'A script answered something the driver cannot read (a bug or a foreign key space).',
  X_REDIS_EVICTION_POLICY:
    'The server runs with a maxmemory-policy other than noeviction, so it may delete acknowledged jobs; every operation is refused unless allowEviction: true.',
  X_REDIS_OUT_OF_MEMORY:
    'Redis refused a write with OOM (maxmemory reached under noeviction); nothing was written; it succeeds once memory is freed.',
} as const;

/** A code @x/jobs-driver-redis declares. */
export type RedisErrorCode = keyof typeof REDIS_ERROR_CODES;

/** Builds a driver error with one of {@link REDIS_ERROR_CODES}. */
export function redisError(
  code: RedisErrorCode,
  message: string,
  meta?: Record<string, unknown>,
): JobsError<RedisErrorCode> {
  return new JobsError(code, message, meta === undefined ? {} : { meta });
}
