import { JobsError } from '@x/jobs-core';

/**
 * `X_REDIS_OUT_OF_MEMORY` for a server reply that refused a write because `maxmemory` is reached
 * under `noeviction` (`OOM command not allowed…`, also when raised inside a script), else
 * undefined. Nothing of the refused command was written; it succeeds once memory is freed.
 */
export function outOfMemoryError(error: Error, operation: string): JobsError | undefined {
  if (error.name !== 'ReplyError' || !/(^|[\s:])OOM\b/.test(error.message ?? '')) return undefined;
  return new JobsError(
    'X_REDIS_OUT_OF_MEMORY',
    `${operation}: Redis is full (maxmemory reached under noeviction); nothing was written. Free memory, raise maxmemory, or shorten doneTtlMs.`,
    { meta: { operation }, cause: error },
  );
}
