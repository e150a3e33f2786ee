import { configurationError, JobsError } from '@x/jobs-core';
import { isNetworkErrorCode } from '@x/jobs-core/driver';
import { pgError } from './errors.js';

/** SQLSTATEs (beyond class 08) that mean "the server is going away or cannot take you now". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, server stop
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up / recovering
  '57014', // query_canceled: statement_timeout or pg_cancel_backend; nothing was written
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
]);

/** The setting a configuration error names: what the app passed the driver. */
const SETTING = 'connectionString';

/**
 * Messages node-postgres and PGlite raise without a code when a connection dies under them (they
 * carry no SQLSTATE because no server answered).
 */
const DROPPED_CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
  'PGlite not initialized',
];

/**
 * Turns anything a pg or PGlite call threw into a coded {@link JobsError}, so callers branch on
 * one vocabulary. The only place native errors are read.
 *
 * | native | code | `meta.retryable` |
 * |---|---|---|
 * | SQLSTATE `3D000` (no such database) | `X_DRIVER_DATABASE_MISSING` | false |
 * | SQLSTATE `28P01`, `28000` (password, role or `pg_hba.conf` refused) | `X_DRIVER_AUTH_FAILED` | false |
 * | `ENOTFOUND` (the host name does not resolve) | `X_DRIVER_HOST_UNKNOWN` | false |
 * | `ERR_INVALID_URL` (pg could not parse the connection string) | `X_DRIVER_URL_INVALID` | false |
 * | SQLSTATE `08*`, `57P01/02/03`, `57014`, `53300`; `ECONNREFUSED`, `ECONNRESET`, `EAI_AGAIN`, …; a dropped connection | `X_DRIVER_UNAVAILABLE` | true |
 * | `40001` serialization failure, `40P01` deadlock | `X_PG_TRANSACTION_CONFLICT` | true |
 * | `23505` unique violation | `X_JOB_DUPLICATE` | false |
 * | `42P01` undefined table, `3F000` undefined schema | `X_PG_SCHEMA_MISSING` | false |
 * | anything else | `X_PG_QUERY_FAILED` | false |
 *
 * The four configuration codes (`meta.setting: 'connectionString'`) say that a retry changes
 * nothing; the server's own message rides along (it names the database or role, never a password).
 * A `JobsError` passes through unchanged. `meta.sqlstate` / `meta.errno` carry the native code.
 */
export function classifyPgError(error: unknown): JobsError {
  if (error instanceof JobsError) return error;
  const native = readNative(error);
  const meta: Record<string, unknown> = {};
  if (native.sqlstate !== undefined) meta.sqlstate = native.sqlstate;
  if (native.errno !== undefined) meta.errno = native.errno;

  const misconfigured = configurationErrorOf(native, meta, error);
  if (misconfigured !== undefined) return misconfigured;

  if (isUnavailable(native)) {
    return new JobsError(
      'X_DRIVER_UNAVAILABLE',
      `PostgreSQL cannot be reached right now (${native.sqlstate ?? native.errno ?? native.message}); nothing was written, retry.`,
      { meta: { ...meta, retryable: true }, cause: error },
    );
  }
  if (native.sqlstate === '40001' || native.sqlstate === '40P01') {
    return pgError(
      'X_PG_TRANSACTION_CONFLICT',
      `PostgreSQL aborted the statement (${native.sqlstate}); retry it.`,
      { ...meta, retryable: true },
      error,
    );
  }
  if (native.sqlstate === '23505') {
    return new JobsError('X_JOB_DUPLICATE', 'A row with the same unique key already exists.', {
      meta: { ...meta, retryable: false, ...(native.constraint ? { constraint: native.constraint } : {}) },
      cause: error,
    });
  }
  if (native.sqlstate === '42P01' || native.sqlstate === '3F000') {
    return pgError(
      'X_PG_SCHEMA_MISSING',
      'A jobs table is missing: run migrate() (x-jobs migrate) against this database first.',
      { ...meta, retryable: false },
      error,
    );
  }
  return pgError(
    'X_PG_QUERY_FAILED',
    `PostgreSQL refused the statement: ${native.message}`,
    { ...meta, retryable: false },
    error,
  );
}

/** The configuration error `native` is, if it is one (see the table of {@link classifyPgError}). */
function configurationErrorOf(
  native: NativeFacts,
  meta: Record<string, unknown>,
  error: unknown,
): JobsError | undefined {
  const fix = `fix ${SETTING} (DATABASE_URL); retrying will not help`;
  if (native.sqlstate === '3D000') {
    return configurationError(
      'X_DRIVER_DATABASE_MISSING',
      `PostgreSQL has no such database (${native.message}): create it, or ${fix}.`,
      SETTING,
      meta,
      error,
    );
  }
  if (native.sqlstate === '28P01' || native.sqlstate === '28000') {
    return configurationError(
      'X_DRIVER_AUTH_FAILED',
      `PostgreSQL refused the credentials (${native.message}): ${fix}.`,
      SETTING,
      meta,
      error,
    );
  }
  if (native.errno === 'ENOTFOUND') {
    return configurationError(
      'X_DRIVER_HOST_UNKNOWN',
      `The PostgreSQL host name does not resolve (${native.message}): ${fix}.`,
      SETTING,
      meta,
      error,
    );
  }
  if (native.errno === 'ERR_INVALID_URL') {
    return configurationError(
      'X_DRIVER_URL_INVALID',
      `The PostgreSQL connection string is not a valid URL: ${fix}.`,
      SETTING,
      meta,
      error,
    );
  }
  return undefined;
}

interface NativeFacts {
  readonly sqlstate: string | undefined;
  readonly errno: string | undefined;
  readonly message: string;
  readonly constraint: string | undefined;
}

function readNative(error: unknown): NativeFacts {
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const code = typeof record.code === 'string' ? record.code : undefined;
  const isSqlstate = code !== undefined && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('E');
  return {
    sqlstate: isSqlstate ? code : undefined,
    errno: isSqlstate ? undefined : code,
    message: error instanceof Error ? error.message : String(error),
    constraint: typeof record.constraint === 'string' ? record.constraint : undefined,
  };
}

function isUnavailable(native: NativeFacts): boolean {
  if (native.sqlstate !== undefined) {
    return native.sqlstate.startsWith('08') || UNAVAILABLE_SQLSTATES.has(native.sqlstate);
  }
  if (native.errno !== undefined && isNetworkErrorCode(native.errno)) return true;
  return DROPPED_CONNECTION_MESSAGES.some((fragment) => native.message.includes(fragment));
}
