import { configurationError } from '@x/jobs-core';

/** The URL schemes node-postgres reads (`socket:` is a Unix socket path). */
const SCHEMES = new Set(['postgres:', 'postgresql:', 'socket:']);

/**
 * Refuses a connection string node-postgres would misread, at the factory: not a URL (pg would
 * take `not a url` as a host named `base`), another scheme (`mysql://…`), or a URL that does not
 * parse (a port that is not a number). `X_DRIVER_URL_INVALID`, `meta.setting` naming `setting`;
 * the string itself is never echoed (it may hold a password). A Unix socket path (`/var/run/…`)
 * passes.
 */
export function checkConnectionString(connectionString: string, setting = 'connectionString'): void {
  if (connectionString.startsWith('/')) return;
  let scheme: string | undefined;
  try {
    scheme = new URL(connectionString).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme !== undefined && SCHEMES.has(scheme)) return;
  throw configurationError(
    'X_DRIVER_URL_INVALID',
    scheme === undefined
      ? `${setting} is not a valid URL: write it as postgres://user:password@host:5432/database.`
      : `${setting} names the scheme '${scheme}': write it as postgres://user:password@host:5432/database.`,
    setting,
    scheme === undefined ? {} : { scheme },
  );
}
