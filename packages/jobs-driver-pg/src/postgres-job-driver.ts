import { parseQueueOptions } from '@x/jobs-core/driver';
import {
  DEFAULT_DONE_RETENTION_MS,
  type PostgresConnection,
  type PostgresJobDriverOptions,
  type SqlJobDriverOptions,
} from './driver-options.js';
import { pgError } from './errors.js';
import { pgPoolSession } from './pg-pool-session.js';
import { openPostgres } from './postgres-connection.js';
import { DEFAULT_SCHEMA, settledChannel, validateSchemaName } from './schema-name.js';
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
  const retention = resolveRetention(options);
  const queues = parseQueueOptions(options.queues, 'postgresJobDriver');
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
    ...retention,
    queues,
    wake:
      opened.listen === undefined || options.wake === false
        ? undefined
        : new PgListenSession(opened.listen, schema, settledChannel(schema)),
    release: opened.release,
  });
}

/** How long `done` rows are kept (0: not at all) and whether an ack keeps them in `job_history`. */
export interface ResolvedRetention {
  readonly doneRetentionMs: number;
  readonly keepDone: boolean;
}

/**
 * Checks `doneRetentionMs` (a positive number of ms) and `retention.done` (0, or a positive number
 * of ms); at most one of them. (Default: seven days, kept in `job_history`)
 */
export function resolveRetention(options: SqlJobDriverOptions): ResolvedRetention {
  const { doneRetentionMs, retention } = options;
  if (retention !== undefined && doneRetentionMs !== undefined) {
    throw pgError('X_PG_OPTIONS_INVALID', 'Pass doneRetentionMs or retention.done, not both.', {
      field: 'retention',
    });
  }
  if (retention !== undefined) {
    const done = typeof retention === 'object' && retention !== null ? retention.done : Number.NaN;
    if (done === 0) return { doneRetentionMs: 0, keepDone: false };
    if (done === undefined) return { doneRetentionMs: DEFAULT_DONE_RETENTION_MS, keepDone: true };
    return { doneRetentionMs: positiveMs(done, 'retention.done'), keepDone: true };
  }
  if (doneRetentionMs === undefined) return { doneRetentionMs: DEFAULT_DONE_RETENTION_MS, keepDone: true };
  return { doneRetentionMs: positiveMs(doneRetentionMs, 'doneRetentionMs'), keepDone: true };
}

function positiveMs(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw pgError('X_PG_OPTIONS_INVALID', `${field}: must be a positive number of ms.`, { field });
  }
  return value;
}
