import type { JsonValue } from '@x/jobs-core';
import type { BackfillLedger, BackfillRecord, BackfillStatus } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { epochMs, epochMsOrNull, jsonParam, toNumber } from '../row-values.js';
import { fromEpochMs } from '../sql-time.js';

interface BackfillRow {
  readonly name: string;
  readonly run_id: string;
  readonly checksum: string;
  readonly status: string;
  readonly rows_processed: string | number;
  readonly cursor: unknown;
  readonly started_at: unknown;
  readonly completed_at: unknown;
}

function toBackfillRecord(row: BackfillRow): BackfillRecord {
  return {
    name: row.name,
    runId: row.run_id,
    checksum: row.checksum,
    status: row.status as BackfillStatus,
    rowsProcessed: toNumber(row.rows_processed),
    cursor: (row.cursor ?? null) as JsonValue,
    startedAt: epochMs(row.started_at),
    completedAt: epochMsOrNull(row.completed_at),
  };
}

const COLUMNS = [
  'name',
  'run_id',
  'checksum',
  'status',
  'rows_processed',
  'cursor',
  'started_at',
  'completed_at',
] as const;

/** The backfill ledger in the `backfills` table, one row per (name, runId). */
export function createBackfillLedger(ctx: DriverContext): BackfillLedger {
  return {
    async record(row) {
      const values = {
        checksum: row.checksum,
        status: row.status,
        rows_processed: row.rowsProcessed,
        cursor: jsonParam(row.cursor ?? null),
        started_at: fromEpochMs(row.startedAt),
        completed_at: row.completedAt === null ? null : fromEpochMs(row.completedAt),
      };
      await ctx.build((db) =>
        db
          .insertInto('backfills')
          .values({ name: row.name, run_id: row.runId, ...values })
          .onConflict((oc) => oc.columns(['name', 'run_id']).doUpdateSet(values))
          .execute(),
      );
    },
    async get(name, runId) {
      const row = await ctx.build((db) =>
        db
          .selectFrom('backfills')
          .select(COLUMNS)
          .where('name', '=', name)
          .where('run_id', '=', runId)
          .executeTakeFirst(),
      );
      return row === undefined ? null : toBackfillRecord(row);
    },
    async list(query = {}) {
      const rows = await ctx.build((db) => {
        let select = db.selectFrom('backfills').select(COLUMNS);
        if (query.name !== undefined) select = select.where('name', '=', query.name);
        if (query.status !== undefined) select = select.where('status', '=', query.status);
        return select
          .orderBy('started_at', 'desc')
          .orderBy('run_id', 'desc')
          .limit(query.limit ?? 100)
          .execute();
      });
      return rows.map(toBackfillRecord);
    },
  };
}
