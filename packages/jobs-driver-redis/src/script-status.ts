import type { CoreErrorCode } from '@x/jobs-core';

/**
 * The one table from a script's error status to the error code the driver throws. A script
 * refuses with `redis.error_reply('<STATUS> <detail>')`; anything else a script or the server
 * answers as an error is not listed here and passes through (or is classified as a connection
 * failure by `classifyRedisError`).
 */
export const SCRIPT_STATUS_CODES = {
  /** enqueue met a live row (or its own id) under onConflict 'error'. */
  XJ_DUPLICATE: 'X_JOB_DUPLICATE',
} as const satisfies Record<string, CoreErrorCode>;

/** A status a script can refuse with. */
export type ScriptStatus = keyof typeof SCRIPT_STATUS_CODES;
