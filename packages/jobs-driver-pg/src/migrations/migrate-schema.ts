import type { Kysely } from 'kysely';
import type { JobsDatabase } from '../database-types.js';
import { pgError } from '../errors.js';
import { bindSchema } from '../schema-name.js';
import { kyselySession } from '../sql-session.js';
import type { Migration } from './migration.js';
import { migrationChecksum } from './migration-checksum.js';
import { MIGRATIONS } from './migration-list.js';

/** What one `migrate()` did. */
export interface MigrateResult {
  readonly schema: string;
  /** Versions applied by this call, in order (empty when the schema was current). */
  readonly applied: readonly number[];
  /** The schema version after the call. */
  readonly version: number;
}

const BOOTSTRAP = [
  `create schema if not exists :"SCHEMA"`,
  `create table if not exists :"SCHEMA".migrations (
  version integer primary key,
  name text not null,
  checksum text not null,
  applied_at timestamptz not null default now()
)`,
];

/**
 * Brings `schema` up to the latest migration in one transaction, under a transaction-scoped
 * advisory lock keyed by the schema name: a second process migrating at the same time waits,
 * then finds the work done. Verifies the checksum of every applied migration first.
 */
export async function migrateSchema(
  db: Kysely<JobsDatabase>,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrateResult> {
  return db.transaction().execute(async (trx) => {
    const session = kyselySession(trx);
    await session.query('select pg_advisory_xact_lock(hashtext($1))', [`x-jobs:migrate:${schema}`]);
    for (const statement of BOOTSTRAP) await session.query(bindSchema(statement, schema));
    const rows = await session.query<{ version: number; checksum: string }>(
      bindSchema('select version, checksum from :"SCHEMA".migrations order by version', schema),
    );
    const recorded = new Map(rows.map((row) => [Number(row.version), row.checksum]));
    const applied: number[] = [];
    for (const migration of migrations) {
      const checksum = migrationChecksum(migration);
      const previous = recorded.get(migration.version);
      if (previous !== undefined) {
        if (previous !== checksum) {
          throw pgError(
            'X_PG_MIGRATION_CHECKSUM_MISMATCH',
            `Migration ${migration.version} (${migration.name}) in schema ${schema} was applied with another checksum: released migrations are append-only.`,
            { schema, version: migration.version },
          );
        }
        continue;
      }
      for (const statement of migration.statements) await session.query(bindSchema(statement, schema));
      await session.query(
        bindSchema('insert into :"SCHEMA".migrations (version, name, checksum) values ($1, $2, $3)', schema),
        [migration.version, migration.name, checksum],
      );
      applied.push(migration.version);
    }
    const version = Math.max(0, ...recorded.keys(), ...applied);
    return { schema, applied, version };
  });
}
