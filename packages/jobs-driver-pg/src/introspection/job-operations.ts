import { isJobsError, type StepResolution } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { jsonParam } from '../row-values.js';
import { dbNow } from '../sql-time.js';

const LIVE = ['ready', 'delayed', 'running', 'suspended'];

/**
 * Puts a terminal row back to `ready` now with attempts reset; with `fromStep`, deletes that step
 * and every later one first. False, with nothing changed, when the row is live or absent, when
 * `fromStep` names no step of its run, or when another live row holds its key (the unique index
 * refuses the update and the transaction rolls back).
 */
export async function retryJob(
  ctx: DriverContext,
  id: string,
  fromStep: string | undefined,
): Promise<boolean> {
  try {
    return await retryInTransaction(ctx, id, fromStep);
  } catch (error) {
    // Another live row took the key meanwhile: the transaction rolled back, nothing changed.
    if (isJobsError(error, 'X_JOB_DUPLICATE')) return false;
    throw error;
  }
}

function retryInTransaction(ctx: DriverContext, id: string, fromStep: string | undefined): Promise<boolean> {
  return ctx.transaction(async (trx, session) => {
    const row = await trx
      .selectFrom('jobs')
      .select(['run_id', 'state', 'queue'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (row === undefined || LIVE.includes(row.state)) return false;
    if (fromStep !== undefined) {
      const step = await trx
        .selectFrom('steps')
        .select('position')
        .where('run_id', '=', row.run_id)
        .where('name', '=', fromStep)
        .executeTakeFirst();
      if (step === undefined) return false;
      await trx
        .deleteFrom('steps')
        .where('run_id', '=', row.run_id)
        .where('position', '>=', step.position)
        .execute();
    }
    await trx
      .updateTable('jobs')
      .set({
        state: 'ready',
        attempts: 0,
        run_at: dbNow,
        started_at: null,
        finished_at: null,
        lease_expires_at: null,
        worker_id: null,
        claim_token: null,
        stop_reason: null,
        result: null,
        progress: null,
        waiting_for: null,
        cancel_reason: null,
      })
      .where('id', '=', id)
      .execute();
    await session.query(ctx.sql.notify, [row.queue]);
    return true;
  });
}

/** Cancels a live row (a `running` one too: its holder's next heartbeat answers false). */
export async function cancelJob(
  ctx: DriverContext,
  id: string,
  reason: string | undefined,
): Promise<boolean> {
  const rows = await ctx.build((db) =>
    db
      .updateTable('jobs')
      .set({ state: 'cancelled', cancel_reason: reason ?? null, finished_at: dbNow, lease_expires_at: null })
      .where('id', '=', id)
      .where('state', 'in', LIVE)
      .returning('id')
      .execute(),
  );
  return rows.length > 0;
}

/** Deletes a row that is not `running`, and the steps of its run when no other row carries it. */
export function removeJob(ctx: DriverContext, id: string): Promise<boolean> {
  return ctx.transaction(async (trx) => {
    const removed = await trx
      .deleteFrom('jobs')
      .where('id', '=', id)
      .where('state', '!=', 'running')
      .returning('run_id')
      .executeTakeFirst();
    if (removed === undefined) return false;
    await trx
      .deleteFrom('steps')
      .where('run_id', '=', removed.run_id)
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('jobs').select('id').where('run_id', '=', removed.run_id))),
      )
      .execute();
    return true;
  });
}

/** Makes a `delayed` row `ready` now, or a `suspended` one due now. */
export function promoteJob(ctx: DriverContext, id: string): Promise<boolean> {
  return ctx.transaction(async (trx, session) => {
    const row = await trx
      .updateTable('jobs')
      .set((eb) => ({
        run_at: dbNow,
        state: eb.case().when('state', '=', 'delayed').then('ready').else(eb.ref('state')).end(),
      }))
      .where('id', '=', id)
      .where('state', 'in', ['delayed', 'suspended'])
      .returning('queue')
      .executeTakeFirst();
    if (row === undefined) return false;
    await session.query(ctx.sql.notify, [row.queue]);
    return true;
  });
}

/**
 * Resolves a `once` step left `started`: records it completed with the given output, or deletes
 * it so the next attempt runs it. False when the step is not `started` (or the job is absent).
 */
export async function resolveStep(
  ctx: DriverContext,
  jobId: string,
  step: string,
  resolution: StepResolution,
): Promise<boolean> {
  const runOf = (db: Parameters<Parameters<DriverContext['build']>[0]>[0]) =>
    db.selectFrom('jobs').select('run_id').where('id', '=', jobId);
  const rows = await ctx.build((db) =>
    resolution.ran
      ? db
          .updateTable('steps')
          .set({
            status: 'completed',
            output: jsonParam(resolution.output ?? null),
            error: null,
            completed_at: dbNow,
          })
          .where('run_id', '=', runOf(db))
          .where('name', '=', step)
          .where('status', '=', 'started')
          .returning('name')
          .execute()
      : db
          .deleteFrom('steps')
          .where('run_id', '=', runOf(db))
          .where('name', '=', step)
          .where('status', '=', 'started')
          .returning('name')
          .execute(),
  );
  return rows.length > 0;
}

/** Deletes `done` rows finished before `doneBefore` (and their steps) in passes of `batch`. */
export async function purgeDone(ctx: DriverContext, doneBefore: number, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await ctx.query<{ n: number }>(ctx.sql.purgeDone, [doneBefore, batch]);
    const n = Number(rows[0]?.n ?? 0);
    total += n;
    if (n < batch) return total;
  }
}
