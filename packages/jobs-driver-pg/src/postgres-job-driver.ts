import {
  DEFAULT_DONE_RETENTION_MS,
  type PostgresConnection,
  type PostgresJobDriverOptions,
} from './driver-options.js';
import { pgError } from './errors.js';
import { pgPoolSession } from './pg-pool-session.js';
import { openPostgres } from './postgres-connection.js';
import { DEFAULT_SCHEMA, validateSchemaName } from './schema-name.js';
import { createSqlJobDriver, type PostgresJobDriver } from './sql-job-driver.js';
import { PgListenSession } from './wake/pg-listen-session.js';

/**
 * The PostgreSQL `JobDriver` on kysely + pg. Nothing connects until the first call (or
 * `ready()`), which applies pending migrations under an advisory lock unless `migrate: false`.
 *
 * ```ts
 * const driver = postgresJobDriver({ connectionString: process.env.DATABASE_URL! });
 * setJobDriver(driver);
 * ```
 */
export function postgresJobDriver(
  connection: PostgresConnection,
  options: PostgresJobDriverOptions = {},
): PostgresJobDriver {
  const schema = validateSchemaName(options.schema ?? DEFAULT_SCHEMA);
  const doneRetentionMs = validateRetention(options.doneRetentionMs);
  const opened = openPostgres(connection);
  return createSqlJobDriver({
    name: 'postgres',
    db: opened.db,
    session:
      opened.pool !== undefined && options.preparedStatements !== false
        ? pgPoolSession(opened.pool)
        : undefined,
    schema,
    migrate: options.migrate ?? true,
    doneRetentionMs,
    wake:
      opened.listen === undefined || options.wake === false
        ? undefined
        : new PgListenSession(opened.listen, schema),
    release: opened.release,
  });
}

/** Checks `doneRetentionMs`: a positive number of ms (Default: seven days). */
export function validateRetention(value: number | undefined): number {
  if (value === undefined) return DEFAULT_DONE_RETENTION_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw pgError('X_PG_OPTIONS_INVALID', 'doneRetentionMs: must be a positive number of ms.', {
      field: 'doneRetentionMs',
    });
  }
  return value;
}
