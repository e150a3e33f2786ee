import type { JobErrorRecord, JsonValue, StepRecord, StepStatus } from '@x/jobs-core';
import type { StepFence, StepStore } from '@x/jobs-core/driver';
import { CallBatcher } from '@x/jobs-core/driver';
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

/** One save waiting in the batch: a step and the claim that fences it. */
interface StepSave {
  readonly fence: StepFence;
  readonly step: StepRecord;
}

/**
 * Saves in flight at once. One: the saves that arrive while a batch commits leave together in the
 * next, so concurrent runs share a round trip and a commit (at c=10 a batch holds most of the
 * runs' next steps).
 */
const STEP_SAVES_IN_FLIGHT = 1;

/** One save's parameters as SQL_STEP_SAVE takes them. */
function saveParams({ fence, step }: StepSave): unknown[] {
  return [
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
  ];
}

/**
 * Writes a batch of saves: one SQL_STEP_SAVE_MANY, or SQL_STEP_SAVE per save when the batch is
 * one save or names one `(run, step)` twice (an upsert may touch a row once per statement).
 */
async function saveBatch(ctx: DriverContext, saves: readonly StepSave[]): Promise<boolean[]> {
  const keys = new Set(saves.map(({ fence, step }) => `${fence.runId}\u0000${step.name}`));
  if (saves.length === 1 || keys.size < saves.length) {
    const landed: boolean[] = [];
    for (const save of saves) landed.push((await ctx.query(ctx.sql.stepSave, saveParams(save))).length > 0);
    return landed;
  }
  const columns = saves.map(saveParams);
  const params = Array.from({ length: 10 }, (_, k) => columns.map((row) => row[k]));
  const rows = await ctx.query<{ saved: number }>(ctx.sql.stepSaveMany, params);
  const landed = saves.map(() => false);
  for (const row of rows) landed[Number(row.saved) - 1] = true;
  return landed;
}

/**
 * Step persistence in the `steps` table, writes fenced on the job's claim. Saves of concurrent
 * runs are gathered into one statement and one commit (SQL_STEP_SAVE_MANY); each save resolves
 * once its statement committed.
 */
export function createStepStore(ctx: DriverContext): StepStore {
  const batch = new CallBatcher<StepSave, boolean>(
    (saves) => saveBatch(ctx, saves),
    1000,
    STEP_SAVES_IN_FLIGHT,
  );
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
    save(fence: StepFence, step: StepRecord) {
      return batch.call({ fence, step });
    },
  };
}
