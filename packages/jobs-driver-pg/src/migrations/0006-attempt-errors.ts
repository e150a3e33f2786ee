import type { Migration } from './migration.js';

/**
 * `attempt_errors`: every failed attempt's record (class, code, message, bounded stack, causes,
 * step, attempt, `at`), a jsonb array oldest first, on the row itself — in `jobs` and in
 * `job_history` — so the records move with the row between the tables and go with it when it is
 * removed, purged or dropped at its ack (`retention: { done: 0 }`): no statement that deletes rows
 * has to remember them. Null until the first failure. Written by SQL_ATTEMPT_ERROR_RECORD only
 * (a failure, never the hot path); a listing never reads it.
 *
 * Adding a nullable column with no default is a catalog change (no table rewrite, a brief
 * ACCESS EXCLUSIVE lock), so upgrading a populated database is instant and every row reads null.
 */
export const MIGRATION_0006_ATTEMPT_ERRORS: Migration = {
  version: 6,
  name: 'attempt-errors',
  statements: [
    `alter table :"SCHEMA".jobs add column attempt_errors jsonb`,
    `alter table :"SCHEMA".job_history add column attempt_errors jsonb`,
  ],
};
