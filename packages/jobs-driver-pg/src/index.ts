export { classifyPgError } from './classify-pg-error.js';
export type { PostgresConnection, PostgresJobDriverOptions, SqlJobDriverOptions } from './driver-options.js';
export { DEFAULT_DONE_RETENTION_MS } from './driver-options.js';
export type { PgErrorCode } from './errors.js';
export { PG_ERROR_CODES } from './errors.js';
export { migrate } from './migrate.js';
export type { MigrateResult } from './migrations/migrate-schema.js';
export { LATEST_MIGRATION_VERSION } from './migrations/migration-list.js';
export { postgresJobDriver } from './postgres-job-driver.js';
export { DEFAULT_SCHEMA } from './schema-name.js';
export { SQL_ACK, SQL_ACK_MANY } from './sql/ack.sql.js';
export { SQL_ATTEMPT_ERROR_RECORD } from './sql/attempt-error.sql.js';
export { SQL_CLAIM } from './sql/claim.sql.js';
export { SQL_CLAIM_FAIR, SQL_CLAIM_FAIR_LOCK, SQL_CLAIM_FAIR_OPEN } from './sql/claim-fair.sql.js';
export { SQL_ENQUEUE, SQL_ENQUEUE_MANY, SQL_ENQUEUE_READBACK } from './sql/enqueue.sql.js';
export { SQL_EVENT_FIND, SQL_EVENT_PUBLISH } from './sql/event-publish.sql.js';
export { SQL_HEARTBEAT } from './sql/heartbeat.sql.js';
export {
  SQL_NACK_DEAD,
  SQL_NACK_RELEASE,
  SQL_NACK_RELEASE_MANY,
  SQL_NACK_RETRY,
  SQL_NACK_SUSPEND,
} from './sql/nack.sql.js';
export { SQL_NOTIFY } from './sql/notify.sql.js';
export { SQL_PROGRESS } from './sql/progress.sql.js';
export { SQL_PURGE_DONE } from './sql/purge.sql.js';
export { SQL_STATS } from './sql/stats.sql.js';
export { SQL_STEP_SAVE } from './sql/step-save.sql.js';
export type { PostgresJobDriver } from './sql-job-driver.js';
