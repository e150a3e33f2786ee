export type { PgErrorCode } from '../errors.js';
export { PG_ERROR_CODES } from '../errors.js';
export type { PostgresJobDriver } from '../sql-job-driver.js';
export type { DataDirLock } from './data-dir-lock.js';
export { LOCK_FILE_NAME, lockDataDir } from './data-dir-lock.js';
export { PGliteDialect } from './pglite-dialect.js';
export type { PgliteJobDriverOptions } from './pglite-job-driver.js';
export { pgliteJobDriver } from './pglite-job-driver.js';
