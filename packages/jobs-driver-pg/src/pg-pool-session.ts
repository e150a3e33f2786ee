import { createHash } from 'node:crypto';
import type pg from 'pg';
import { classifyPgError } from './classify-pg-error.js';
import type { SqlSession } from './sql-session.js';

/**
 * A {@link SqlSession} straight on a pg Pool with named prepared statements: each connection
 * parses and plans a verbatim statement once and then only binds and executes it, which is most of
 * a small statement's cost. Names are `x_jobs_<sha1 of the text>`, so two schemas never share one.
 * Off (`preparedStatements: false`) behind a transaction-mode pooler that cannot keep them.
 */
export function pgPoolSession(pool: pg.Pool): SqlSession {
  const names = new Map<string, string>();
  const nameOf = (statement: string): string => {
    let name = names.get(statement);
    if (name === undefined) {
      name = `x_jobs_${createHash('sha1').update(statement).digest('hex').slice(0, 24)}`;
      names.set(statement, name);
    }
    return name;
  };
  return {
    async query<Row>(statement: string, params: readonly unknown[] = []): Promise<Row[]> {
      try {
        const result = await pool.query({ name: nameOf(statement), text: statement, values: [...params] });
        return result.rows as Row[];
      } catch (error) {
        throw classifyPgError(error);
      }
    },
  };
}
