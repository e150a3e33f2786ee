import { classifyPgError } from './classify-pg-error.js';
import type { PostgresConnection } from './driver-options.js';
import { type MigrateResult, migrateSchema } from './migrations/migrate-schema.js';
import { openPostgres } from './postgres-connection.js';
import { DEFAULT_SCHEMA, validateSchemaName } from './schema-name.js';

/**
 * Applies the driver's pending migrations to `schema` and answers what it did. Safe to run from
 * many processes at once (they serialize on an advisory lock) and to repeat (a current schema is
 * a no-op). Refuses with `X_PG_MIGRATION_CHECKSUM_MISMATCH` when an applied migration was edited.
 * This is what `x-jobs migrate` runs.
 */
export async function migrate(
  connection: PostgresConnection,
  options: { readonly schema?: string } = {},
): Promise<MigrateResult> {
  const schema = validateSchemaName(options.schema ?? DEFAULT_SCHEMA);
  const opened = openPostgres(connection);
  try {
    return await migrateSchema(opened.db, schema);
  } catch (error) {
    throw classifyPgError(error);
  } finally {
    await opened.release();
  }
}
