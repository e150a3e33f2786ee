import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { classifyPgError } from './classify-pg-error.js';

/** Runs one verbatim statement with bound values and answers its rows; errors are already coded. */
export interface SqlSession {
  query<Row = Record<string, unknown>>(statement: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** A {@link SqlSession} over a Kysely instance or transaction (pg or PGlite alike). */
export function kyselySession<DB>(db: Kysely<DB> | Transaction<DB>): SqlSession {
  return {
    async query<Row>(statement: string, params: readonly unknown[] = []): Promise<Row[]> {
      try {
        const result = await db.executeQuery<Row>(CompiledQuery.raw(statement, [...params]));
        return result.rows as Row[];
      } catch (error) {
        throw classifyPgError(error);
      }
    },
  };
}
