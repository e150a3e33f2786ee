import { JobsError } from '@x/jobs-core';

/**
 * Every error code @x/jobs-driver-pg throws besides core's (`X_DRIVER_UNAVAILABLE`,
 * `X_DRIVER_CLOSED`, `X_JOB_DUPLICATE`), with its one-line meaning.
 */
export const PG_ERROR_CODES = {
  X_PG_OPTIONS_INVALID:
    'postgresJobDriver / pgliteJobDriver was given an invalid option (schema, connection, …).',
  X_PG_MIGRATION_CHECKSUM_MISMATCH:
    'An applied migration differs from the one this release ships: released migrations must never be edited.',
  X_PG_SCHEMA_MISSING: 'A table of the driver is missing: run migrate() (or x-jobs migrate) first.',
  X_PG_TRANSACTION_CONFLICT:
    'PostgreSQL aborted the statement on a serialization failure or deadlock; nothing was written, retry it.',
  X_PG_QUERY_FAILED:
    'PostgreSQL refused a statement for a reason that a retry will not fix (see meta.sqlstate).',
  X_PGLITE_DATA_DIR_INVALID:
    'The PGlite data directory cannot be created (a path under a regular file, an existing file, no permission).',
  X_PGLITE_LOCKED:
    'Another live process holds the PGlite data directory (its pid is in <dataDir>/.x-jobs.lock).',
} as const;

/** A code @x/jobs-driver-pg declares. */
export type PgErrorCode = keyof typeof PG_ERROR_CODES;

/** Builds a {@link JobsError} with one of this package's codes. */
export function pgError(
  code: PgErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<PgErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}
