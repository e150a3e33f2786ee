import type { EnqueueRequest, OutboxRecord, OutboxStore } from '@x/jobs-core/driver';
import { CompiledQuery } from 'kysely';
import { outboxError } from '../errors.js';
import type { AnyKysely, AnyTransaction } from './any-kysely.js';
import { classifyPgError } from './classify-pg-error.js';
import { type OutboxTableOptions, resolveOutboxTable } from './outbox-table.js';
import { type ListenPool, pgOutboxWake } from './pg-outbox-wake.js';
import { claimSql } from './sql/claim.sql.js';
import { backlogSql, pruneSql } from './sql/maintenance.sql.js';
import { markPublishedSql, releaseSql } from './sql/settle.sql.js';
import { stageQuietSql, stageSql } from './sql/stage.sql.js';
import { tableLockSql } from './sql/table-lock.sql.js';

/** Options of {@link kyselyOutboxStore}. */
export interface KyselyOutboxStoreOptions extends OutboxTableOptions {
  /** The app's own Kysely instance (PostgreSQL dialect); claims and settles run on it. */
  readonly db: AnyKysely;
  /**
   * A `pg` Pool to take one dedicated LISTEN connection from, so a relay wakes as soon as a
   * staging transaction commits. Without it the relay polls. (Default: none)
   */
  readonly listen?: ListenPool;
  /**
   * Whether staging calls `pg_notify` (delivered on commit) to wake relays. Commits that notify
   * serialize briefly on Postgres's notification queue; at very high commit rates turn it off and
   * let the relay poll. `false` cannot be combined with `listen`. (Default: true)
   */
  readonly notify?: boolean;
}

/** The outbox store over the app's Kysely database. Stage with the `trx` of `db.transaction()`. */
export interface KyselyOutboxStore extends OutboxStore<AnyTransaction> {
  /** Deletes published rows older than `olderThanMs` (the audit trail); answers how many. */
  prunePublished(olderThanMs: number): Promise<number>;
}

interface ClaimedRow {
  readonly id: string;
  readonly request: string;
  readonly staged_at_ms: number;
  readonly claimed_by: string;
  readonly claimed_until_ms: number;
  readonly attempts: number;
  readonly last_error: string | null;
}

/**
 * An outbox store in a table of the app's own PostgreSQL database, through the app's Kysely
 * instance: `stage` writes on the caller's transaction and `pg_notify`s on commit; `claim`
 * serializes relays with an advisory lock and stamps the lease in the statement that locks the
 * rows. Create the table first with `migrateOutbox(db)`. Plugins on `db` (CamelCasePlugin, …)
 * are bypassed for its own statements.
 */
export function kyselyOutboxStore(options: KyselyOutboxStoreOptions): KyselyOutboxStore {
  const table = resolveOutboxTable(options);
  if (options.db === undefined || typeof options.db.executeQuery !== 'function') {
    throw outboxError('X_OUTBOX_OPTIONS_INVALID', 'kyselyOutboxStore db: must be a Kysely instance.', {
      field: 'db',
    });
  }
  const notify = options.notify ?? true;
  if (!notify && options.listen !== undefined) {
    throw outboxError(
      'X_OUTBOX_OPTIONS_INVALID',
      'kyselyOutboxStore: listen needs notify: staging that never notifies would never wake the listener.',
      { field: 'listen' },
    );
  }
  const db = options.db.withoutPlugins();
  const sql = {
    stage: notify ? stageSql(table) : stageQuietSql(table),
    lock: tableLockSql(),
    claim: claimSql(table),
    release: releaseSql(table),
    markPublished: markPublishedSql(table),
    backlog: backlogSql(table),
    prune: pruneSql(table),
  };

  const run = async <Row>(
    executor: AnyKysely,
    text: string,
    parameters: readonly unknown[],
  ): Promise<Row[]> => {
    try {
      const result = await executor.executeQuery<Row>(CompiledQuery.raw(text, [...parameters]));
      return result.rows;
    } catch (error) {
      throw classifyPgError(error, table);
    }
  };

  const stageOn = async (tx: AnyTransaction, requests: readonly EnqueueRequest[]): Promise<void> => {
    if (!isKyselyTransaction(tx)) {
      throw outboxError(
        'X_OUTBOX_TX_INVALID',
        'kyselyOutboxStore stages only on a transaction (the trx of db.transaction().execute): ' +
          'staging on the Kysely instance itself would commit alone.',
      );
    }
    await run(tx.withoutPlugins(), sql.stage, [
      requests.map((request) => request.id),
      requests.map((request) => request.name),
      requests.map((request) => JSON.stringify(request)),
      ...(notify ? [table.channel] : []),
    ]);
  };

  return {
    name: 'kysely-postgres',
    ...(options.listen === undefined
      ? {}
      : { wake: pgOutboxWake({ pool: options.listen, channel: table.channel }) }),

    stage: (tx, request) => stageOn(tx, [request]),
    stageMany: async (tx, requests) => {
      if (requests.length > 0) await stageOn(tx, requests);
    },

    async claim({ claimant, limit, leaseMs }) {
      const rows = await db.transaction().execute(async (trx) => {
        await run(trx, sql.lock, [table.lockKey]);
        return run<ClaimedRow>(trx, sql.claim, [claimant, limit, leaseMs]);
      });
      return rows.map(toRecord);
    },

    async release(claimant, ids, error) {
      if (ids.length === 0) return 0;
      return (await run(db, sql.release, [claimant, ids, error ?? null])).length;
    },

    async markPublished(claimant, ids) {
      if (ids.length === 0) return 0;
      return (await run(db, sql.markPublished, [claimant, ids])).length;
    },

    async backlog() {
      const [row] = await run<{ n: number }>(db, sql.backlog, []);
      return row?.n ?? 0;
    },

    async prunePublished(olderThanMs) {
      const [row] = await run<{ n: number }>(db, sql.prune, [olderThanMs]);
      return row?.n ?? 0;
    },
  };
}

function toRecord(row: ClaimedRow): OutboxRecord {
  return {
    id: row.id,
    request: JSON.parse(row.request) as EnqueueRequest,
    stagedAt: Math.floor(row.staged_at_ms),
    claimedBy: row.claimed_by,
    claimedUntil: Math.floor(row.claimed_until_ms),
    attempts: row.attempts,
    lastError: row.last_error,
  };
}

function isKyselyTransaction(tx: unknown): tx is AnyTransaction {
  return (
    typeof tx === 'object' &&
    tx !== null &&
    (tx as { isTransaction?: unknown }).isTransaction === true &&
    typeof (tx as { withoutPlugins?: unknown }).withoutPlugins === 'function'
  );
}
