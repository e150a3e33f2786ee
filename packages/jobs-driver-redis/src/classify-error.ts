import { isJobsError, JobsError } from '@x/jobs-core';
import { isNetworkErrorCode } from '@x/jobs-core/driver';
import { SCRIPT_STATUS_CODES, type ScriptStatus } from './script-status.js';
import { mayHaveBeenApplied } from './server-checks/command-outcome.js';
import { outOfMemoryError } from './server-checks/out-of-memory.js';

/** ioredis messages (they carry no code) for a command refused or lost for want of a connection. */
const CONNECTION_MESSAGES = [
  "Stream isn't writeable",
  'Connection is closed',
  'Command aborted due to connection close',
  'Command timed out',
  'Connection in subscriber mode',
];

/** Error names ioredis gives connection failures. */
const CONNECTION_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError', 'AbortError']);

/** Server replies that mean "not now" rather than "wrong": loading, failover, cluster reshuffle, busy script. */
const TRANSIENT_REPLY_PREFIXES = ['LOADING', 'MASTERDOWN', 'CLUSTERDOWN', 'TRYAGAIN', 'READONLY', 'BUSY'];

/**
 * Maps whatever ioredis threw to what the driver throws, in one place:
 * - a script status (`XJ_DUPLICATE …`) → its code from {@link SCRIPT_STATUS_CODES};
 * - an `OOM` reply (maxmemory reached under noeviction) → `X_REDIS_OUT_OF_MEMORY`;
 * - a connection failure (refused socket, closed stream, no offline queue, timeout, retries
 *   exhausted, a server loading or failing over) → `X_DRIVER_UNAVAILABLE` (retryable), with
 *   `meta.maybeApplied`: true when the command may have run although its reply was lost (a
 *   timeout, a connection dropped after the write). Repeating an enqueue is safe either way —
 *   the same idempotency key dedupes onto the row the first call wrote — but a non-idempotent
 *   write (a settle) may already have landed;
 * - a `JobsError` and anything else (a server error reply, a bug) → unchanged.
 */
export function classifyRedisError(error: unknown, operation: string): unknown {
  if (isJobsError(error) || !(error instanceof Error)) return error;
  const message = error.message ?? '';
  // Redis 7 prefixes a script's error_reply with 'ERR ' when the reply has no detail after its code.
  const status = message.replace(/^ERR /, '').split(' ', 1)[0] ?? '';
  if (Object.hasOwn(SCRIPT_STATUS_CODES, status)) {
    return new JobsError(SCRIPT_STATUS_CODES[status as ScriptStatus], `${operation}: ${message}`, {
      meta: { operation },
      cause: error,
    });
  }
  const full = outOfMemoryError(error, operation);
  if (full !== undefined) return full;
  if (isConnectionFailure(error)) {
    const maybeApplied = mayHaveBeenApplied(error);
    const outcome = maybeApplied ? 'the command may still have been applied' : 'nothing was written';
    return new JobsError(
      'X_DRIVER_UNAVAILABLE',
      `${operation}: Redis is unreachable (${message}); ${outcome}.`,
      {
        meta: { operation, maybeApplied },
        cause: error,
      },
    );
  }
  return error;
}

function isConnectionFailure(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (isNetworkErrorCode(code)) return true;
  if (CONNECTION_NAMES.has(error.name)) return true;
  const message = error.message ?? '';
  if (CONNECTION_MESSAGES.some((text) => message.includes(text))) return true;
  if (error.name === 'ReplyError' && TRANSIENT_REPLY_PREFIXES.some((prefix) => message.startsWith(prefix))) {
    return true;
  }
  return false;
}
