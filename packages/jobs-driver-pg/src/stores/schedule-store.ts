import type { ScheduleState, ScheduleStore } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { epochMs, toNumber } from '../row-values.js';
import { dbNow } from '../sql-time.js';

interface ScheduleRow {
  readonly task: string;
  readonly watermark_ms: string | number | null;
  readonly paused: boolean;
  readonly updated_at: unknown;
}

function toScheduleState(row: ScheduleRow): ScheduleState {
  return {
    task: row.task,
    watermark: row.watermark_ms === null ? null : toNumber(row.watermark_ms),
    paused: row.paused,
    updatedAt: epochMs(row.updated_at),
  };
}

const COLUMNS = ['task', 'watermark_ms', 'paused', 'updated_at'] as const;

/**
 * Scheduler watermarks in the `schedules` table (epoch ms kept as int8, compared exactly).
 * `advance` is one compare-and-set statement.
 */
export function createScheduleStore(ctx: DriverContext): ScheduleStore {
  return {
    async get(task) {
      const row = await ctx.build((db) =>
        db.selectFrom('schedules').select(COLUMNS).where('task', '=', task).executeTakeFirst(),
      );
      return row === undefined ? null : toScheduleState(row);
    },
    async list() {
      const rows = await ctx.build((db) =>
        db.selectFrom('schedules').select(COLUMNS).orderBy('task').execute(),
      );
      return rows.map(toScheduleState);
    },
    async advance(task, expected, next) {
      const rows = await ctx.build((db) =>
        expected === null
          ? db
              .insertInto('schedules')
              .values({ task, watermark_ms: next })
              .onConflict((oc) =>
                oc
                  .column('task')
                  .doUpdateSet({ watermark_ms: next, updated_at: dbNow })
                  .where('schedules.watermark_ms', 'is', null),
              )
              .returning('task')
              .execute()
          : db
              .updateTable('schedules')
              .set({ watermark_ms: next, updated_at: dbNow })
              .where('task', '=', task)
              .where('watermark_ms', '=', expected)
              .returning('task')
              .execute(),
      );
      return rows.length > 0;
    },
    async setPaused(task, paused) {
      await ctx.build((db) =>
        db
          .insertInto('schedules')
          .values({ task, watermark_ms: null, paused })
          .onConflict((oc) => oc.column('task').doUpdateSet({ paused, updated_at: dbNow }))
          .execute(),
      );
    },
  };
}
