import type { CoreErrorCode } from './codes.js';
import { JobsError } from './jobs-error.js';

/**
 * The codes of a backend that refused the settings it was given — not an outage. Retrying changes
 * nothing: someone must fix the setting the error names (`meta.setting`). Every driver raises them
 * when it opens (its first call, `driver.ready()`, `worker.start()`), with `meta.retryable: false`;
 * a worker refuses to start on one and `x-jobs` exits non-zero with its message. Outages (refused
 * or reset connections, timeouts, a server shutting down) stay `X_DRIVER_UNAVAILABLE`, retryable.
 */
export const CONFIGURATION_ERROR_CODES = [
  'X_DRIVER_DATABASE_MISSING',
  'X_DRIVER_AUTH_FAILED',
  'X_DRIVER_URL_INVALID',
  'X_DRIVER_HOST_UNKNOWN',
] as const satisfies readonly CoreErrorCode[];

/** One of {@link CONFIGURATION_ERROR_CODES}. */
export type ConfigurationErrorCode = (typeof CONFIGURATION_ERROR_CODES)[number];

/**
 * Builds a configuration error: `setting` names what to fix (`'DATABASE_URL'`, `'url'`,
 * `'connectionString'`, …) and is stamped in `meta.setting`, with `meta.retryable: false`.
 */
export function configurationError(
  code: ConfigurationErrorCode,
  message: string,
  setting: string,
  meta: Record<string, unknown> = {},
  cause?: unknown,
): JobsError<ConfigurationErrorCode> {
  return new JobsError(code, message, {
    meta: { ...meta, setting, retryable: false },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** True when `error` is a configuration error ({@link CONFIGURATION_ERROR_CODES}): fix a setting, do not retry. */
export function isConfigurationError(error: unknown): error is JobsError<ConfigurationErrorCode> {
  return error instanceof JobsError && (CONFIGURATION_ERROR_CODES as readonly string[]).includes(error.code);
}
