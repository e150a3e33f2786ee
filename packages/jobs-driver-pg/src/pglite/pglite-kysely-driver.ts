import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { quoteIdent } from '../schema-name.js';
import { SessionTurns } from './session-turns.js';

/** Statements whose reported row count Kysely exposes as `numAffectedRows`. */
const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * Kysely's `Driver` over PGlite's single session. `acquireConnection` waits its turn: one
 * statement, or one whole transaction, holds the session at a time, in call order.
 */
export class PgliteKyselyDriver implements Driver {
  readonly #turns = new SessionTurns();
  readonly #connection: PgliteConnection;
  #releaseTurn: (() => void) | undefined;

  constructor(pglite: PGlite) {
    this.#connection = new PgliteConnection(pglite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#releaseTurn = await this.#turns.take();
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#releaseTurn;
    this.#releaseTurn = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const modes = [
      settings.isolationLevel === undefined ? undefined : `isolation level ${settings.isolationLevel}`,
      settings.accessMode,
    ].filter((mode) => mode !== undefined);
    const begin = modes.length === 0 ? 'begin' : `start transaction ${modes.join(', ')}`;
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdent(name)}`));
  }

  /** Waits for the statement or transaction holding the session; the PGlite instance stays open. */
  async destroy(): Promise<void> {
    const release = await this.#turns.take();
    release();
  }
}

/** The one connection: PGlite's session. */
class PgliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#pglite.query<R>(compiled.sql, [...compiled.parameters], { rowMode: 'object' });
    const counted = result.command === undefined || COUNTED_COMMANDS.has(result.command.toUpperCase());
    if (!counted || result.affectedRows === undefined) return { rows: result.rows };
    return { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) };
  }

  /** PGlite has no cursors: the whole result is read, then handed out `chunkSize` rows at a time. */
  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiled);
    const size = Math.max(1, Math.floor(chunkSize));
    for (let start = 0; start < rows.length; start += size) yield { rows: rows.slice(start, start + size) };
  }
}
