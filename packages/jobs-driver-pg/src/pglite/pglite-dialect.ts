import type { PGlite } from '@electric-sql/pglite';
import {
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
} from 'kysely';
import { PgliteKyselyDriver } from './pglite-kysely-driver.js';

/**
 * Kysely's Postgres dialect over one embedded PGlite instance: Postgres SQL, adapter and
 * introspection, with {@link PgliteKyselyDriver} running the statements.
 *
 * Guaranteed: statements and transactions of this Kysely instance run one at a time on PGlite's
 * single session (a transaction holds the session from `begin` to `commit`/`rollback`, so two
 * concurrent `db.transaction()` calls never interleave); `numAffectedRows` (and so
 * `numInsertedOrUpdatedRows` / `numUpdatedRows` / `numDeletedRows`) is the row count PostgreSQL
 * reported; savepoints work. `db.destroy()` does not close the instance: whoever created it does.
 *
 * Two Kysely instances over one PGlite serialize only their own statements: share one Kysely
 * instance (pass it to `pgliteJobDriver({ pglite, db })`).
 *
 * ```ts
 * const pglite = await PGlite.create('.data/db');
 * const db = new Kysely<AppTables>({ dialect: new PGliteDialect(pglite) });
 * ```
 */
export class PGliteDialect implements Dialect {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  createDriver(): Driver {
    return new PgliteKyselyDriver(this.#pglite);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect signature takes any database
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
