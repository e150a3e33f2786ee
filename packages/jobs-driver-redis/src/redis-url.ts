import { configurationError } from '@x/jobs-core';

/** The URL schemes ioredis reads. */
const SCHEMES = new Set(['redis:', 'rediss:']);

/**
 * Refuses a Redis URL ioredis would misread, at the factory: not a URL, another scheme
 * (`http://…`), a port that is not a number, or a database path that is not a whole number
 * (`redis://host:6379/cache`). `X_DRIVER_URL_INVALID` naming `setting` (`url` or `REDIS_URL`);
 * the URL itself is never echoed (it may hold a password).
 */
export function checkRedisUrl(url: string, setting: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const example = 'write it as redis://:password@host:6379/0';
  if (parsed === undefined) {
    throw configurationError('X_DRIVER_URL_INVALID', `${setting} is not a valid URL: ${example}.`, setting);
  }
  if (!SCHEMES.has(parsed.protocol)) {
    throw configurationError(
      'X_DRIVER_URL_INVALID',
      `${setting} names the scheme '${parsed.protocol}': ${example}.`,
      setting,
      { scheme: parsed.protocol },
    );
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) {
    throw configurationError(
      'X_DRIVER_URL_INVALID',
      `${setting} names the database '/${db}': a Redis database is a number (${example}).`,
      setting,
    );
  }
}
