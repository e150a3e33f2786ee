import { errorCode } from '@x/jobs-core';
import { outboxError } from '../errors.js';
import type { OutboxTable } from './outbox-table.js';

/**
 * Maps a Postgres failure to the outbox's code where one means something to the caller
 * (SQLSTATE 42P01, undefined table: the migration never ran); anything else passes through
 * unchanged, so a staging failure looks like any other failure of the app's transaction.
 */
export function classifyPgError(error: unknown, table: OutboxTable): unknown {
  if (errorCode(error) === '42P01') {
    return outboxError(
      'X_OUTBOX_TABLE_MISSING',
      `The outbox table ${table.qualified} does not exist: run migrateOutbox(db) first.`,
      { table: table.qualified },
      error,
    );
  }
  return error;
}
