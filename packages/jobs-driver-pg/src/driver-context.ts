import type { BackendClock, QueueSettings } from '@x/jobs-core/driver';
import type { Kysely, QueryCreator } from 'kysely';
import { classifyPgError } from './classify-pg-error.js';
import type { JobsDatabase } from './database-types.js';
import { kyselySession, type SqlSession } from './sql-session.js';
import type { Statements } from './statements.js';

/**
 * What every part of the driver runs statements through: it waits for the one-time start
 * (migrations, clock sample) and codes every native error through `classifyPgError`. (Refusing
 * after `close()` happens at the public methods, see core's `refuseAfterClose`.)
 */
export interface DriverContext {
  readonly schema: string;
  readonly sql: Statements;
  readonly clock: BackendClock;
  /** The `queues` option, parsed: which queues claim fairly (SQL_CLAIM_FAIR). */
  readonly queues: QueueSettings;
  /** Runs one verbatim statement. */
  query<Row = Record<string, unknown>>(statement: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs statements Kysely builds, against the driver's schema. */
  build<T>(run: (db: QueryCreator<JobsDatabase>) => Promise<T>): Promise<T>;
  /** Runs `run` in one transaction (READ COMMITTED). */
  transaction<T>(run: (trx: QueryCreator<JobsDatabase>, session: SqlSession) => Promise<T>): Promise<T>;
}

/** The parts a {@link DriverContext} is made of. */
export interface DriverContextParts {
  readonly schema: string;
  readonly sql: Statements;
  readonly clock: BackendClock;
  readonly queues: QueueSettings;
  readonly db: Kysely<JobsDatabase>;
  /** Runs the verbatim statements instead of Kysely, when the backend has a faster path. */
  readonly session?: SqlSession | undefined;
  /** Resolves once the driver started (migrated, clock sampled); retried after a failure. */
  readonly ready: () => Promise<void>;
}

/** Builds the {@link DriverContext} of one driver. */
export function createDriverContext(parts: DriverContextParts): DriverContext {
  const scoped = parts.db.withSchema(parts.schema);
  const session = parts.session ?? kyselySession(parts.db);
  const enter = parts.ready;
  return {
    schema: parts.schema,
    sql: parts.sql,
    clock: parts.clock,
    queues: parts.queues,
    async query<Row>(statement: string, params?: readonly unknown[]): Promise<Row[]> {
      await enter();
      return session.query<Row>(statement, params);
    },
    async build<T>(run: (db: QueryCreator<JobsDatabase>) => Promise<T>): Promise<T> {
      await enter();
      try {
        return await run(scoped);
      } catch (error) {
        throw classifyPgError(error);
      }
    },
    async transaction<T>(
      run: (trx: QueryCreator<JobsDatabase>, session: SqlSession) => Promise<T>,
    ): Promise<T> {
      await enter();
      try {
        return await parts.db
          .transaction()
          .execute((trx) => run(trx.withSchema(parts.schema), kyselySession(trx)));
      } catch (error) {
        throw classifyPgError(error);
      }
    },
  };
}
