import type { JobErrorRecord, JsonValue, StepRecord, StepStatus } from '@x/jobs-core';
import type { StepFence, StepStore } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { epochMs, epochMsOrNull, jsonParam } from '../row-values.js';

/** A `steps` row as read. */
export interface StepRow {
  readonly name: string;
  readonly position: number;
  readonly status: string;
  readonly output: unknown;
  readonly error: unknown;
  readonly started_at: unknown;
  readonly completed_at: unknown;
}

/** A `steps` row as a {@link StepRecord}. */
export function toStepRecord(row: StepRow): StepRecord {
  return {
    name: row.name,
    position: row.position,
    status: row.status as StepStatus,
    output: (row.output ?? null) as JsonValue,
    error: (row.error ?? null) as JobErrorRecord | null,
    startedAt: epochMs(row.started_at),
    completedAt: epochMsOrNull(row.completed_at),
  };
}

/** Step persistence in the `steps` table, writes fenced on the job's claim (SQL_STEP_SAVE). */
export function createStepStore(ctx: DriverContext): StepStore {
  return {
    async load(runId) {
      const rows = await ctx.build((db) =>
        db
          .selectFrom('steps')
          .select(['name', 'position', 'status', 'output', 'error', 'started_at', 'completed_at'])
          .where('run_id', '=', runId)
          .orderBy('position')
          .execute(),
      );
      return rows.map(toStepRecord);
    },
    async save(fence: StepFence, step: StepRecord) {
      const rows = await ctx.query(ctx.sql.stepSave, [
        fence.runId,
        step.name,
        step.position,
        step.status,
        jsonParam(step.output ?? null),
        step.error === null ? null : jsonParam(step.error),
        step.startedAt,
        step.completedAt,
        fence.jobId,
        fence.claim.token,
      ]);
      return rows.length > 0;
    },
  };
}
