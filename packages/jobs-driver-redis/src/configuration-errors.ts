import { configurationError, type JobsError } from '@x/jobs-core';

/**
 * The configuration error a connection failure of ioredis is, if it is one — the server refused
 * the settings, so reconnecting forever would change nothing:
 *
 * | ioredis error | code |
 * |---|---|
 * | `WRONGPASS …`, `NOAUTH …`, `ERR invalid password`, `ERR AUTH <password> called without any password configured` | `X_DRIVER_AUTH_FAILED` |
 * | `ERR DB index is out of range`, `ERR invalid DB index` (the `SELECT` of the URL's `/db`) | `X_DRIVER_DATABASE_MISSING` |
 * | `ENOTFOUND` (the host name does not resolve) | `X_DRIVER_HOST_UNKNOWN` |
 *
 * Everything else (refused or reset sockets, timeouts, `LOADING`) is an outage: undefined.
 * `meta.setting` names `setting`, with `meta.retryable: false`.
 */
export function redisConfigurationError(error: unknown, setting: string): JobsError | undefined {
  if (!(error instanceof Error)) return undefined;
  const message = error.message ?? '';
  const fix = `fix ${setting}; retrying will not help`;
  if (
    /^(WRONGPASS|NOAUTH)\b/.test(message) ||
    /^ERR (invalid password|AUTH <password> called without any password)/.test(message)
  ) {
    return configurationError(
      'X_DRIVER_AUTH_FAILED',
      `Redis refused the credentials (${message.split('.')[0]}): ${fix}.`,
      setting,
      {},
      error,
    );
  }
  if (/^ERR (DB index is out of range|invalid DB index)/.test(message)) {
    return configurationError(
      'X_DRIVER_DATABASE_MISSING',
      `Redis has no such database (${message}): use a db index below the server's 'databases' setting, or ${fix}.`,
      setting,
      {},
      error,
    );
  }
  if ((error as { code?: unknown }).code === 'ENOTFOUND') {
    return configurationError(
      'X_DRIVER_HOST_UNKNOWN',
      `The Redis host name does not resolve (${message}): ${fix}.`,
      setting,
      {},
      error,
    );
  }
  return undefined;
}
