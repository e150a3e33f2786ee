import { CompiledQuery } from 'kysely';
import type { AnyKysely } from './any-kysely.js';
import { type OutboxTableOptions, resolveOutboxTable } from './outbox-table.js';
import { outboxMigrations } from './sql/outbox-ddl.sql.js';
import { tableLockSql } from './sql/table-lock.sql.js';

/**
 * The outbox DDL as plain statements, for apps that run migrations with another tool: apply them
 * in order. They are idempotent.
 */
export function outboxMigrationSql(options: OutboxTableOptions = {}): readonly string[] {
  return outboxMigrations(resolveOutboxTable(options)).flat();
}

/**
 * Creates (or brings up to date) the outbox table on the app's own database, in one transaction
 * under the table's advisory lock, so two processes booting at once do not race. Safe to call on
 * every boot, or from a Kysely migration's `up`.
 */
export async function migrateOutbox(db: AnyKysely, options: OutboxTableOptions = {}): Promise<void> {
  const table = resolveOutboxTable(options);
  await db
    .withoutPlugins()
    .transaction()
    .execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw(tableLockSql(), [table.lockKey]));
      for (const statement of outboxMigrationSql(options)) {
        await trx.executeQuery(CompiledQuery.raw(statement));
      }
    });
}
