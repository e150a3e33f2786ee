import { isJobsError, type StepResolution } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { jsonParam } from '../row-values.js';
import { dbNow } from '../sql-time.js';

/**
 * Puts a finished row (in `job_history`) back in `jobs`, `ready` now with attempts reset; with
 * `fromStep`, deletes that step and every later one first. False, with nothing changed, when the
 * row is live or absent, when `fromStep` names no step of its run, or when another live row holds
 * its key (the unique index refuses the insert and the transaction rolls back).
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
      .selectFrom('job_history')
      .select(['run_id'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (row === undefined) return false;
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
    const [moved] = await session.query<{ queue: string }>(ctx.sql.retryMove, [id]);
    if (moved === undefined) return false;
    await session.query(ctx.sql.notify, [moved.queue]);
    return true;
  });
}

/**
 * Cancels a live row (a `running` one too: its holder's next heartbeat answers false), moving it
 * to `job_history` (SQL_CANCEL).
 */
export async function cancelJob(
  ctx: DriverContext,
  id: string,
  reason: string | undefined,
): Promise<boolean> {
  const rows = await ctx.query(ctx.sql.cancel, [id, reason ?? null]);
  return rows.length > 0;
}

/**
 * Deletes a row that is not `running` (from `jobs`, else from `job_history`), and the steps of its
 * run when no other row in either table carries it.
 */
export function removeJob(ctx: DriverContext, id: string): Promise<boolean> {
  return ctx.transaction(async (trx) => {
    const removed =
      (await trx
        .deleteFrom('jobs')
        .where('id', '=', id)
        .where('state', '!=', 'running')
        .returning('run_id')
        .executeTakeFirst()) ??
      (await trx.deleteFrom('job_history').where('id', '=', id).returning('run_id').executeTakeFirst());
    if (removed === undefined) return false;
    await trx
      .deleteFrom('steps')
      .where('run_id', '=', removed.run_id)
      .where((eb) =>
        eb.not(
          eb.or([
            eb.exists(eb.selectFrom('jobs').select('id').where('run_id', '=', removed.run_id)),
            eb.exists(eb.selectFrom('job_history').select('id').where('run_id', '=', removed.run_id)),
          ]),
        ),
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
  // The job's run, whether the row is live or finished (one snapshot: it is in one table).
  const runOf = (db: Parameters<Parameters<DriverContext['build']>[0]>[0]) =>
    db
      .selectFrom('jobs')
      .select('run_id')
      .where('id', '=', jobId)
      .unionAll(db.selectFrom('job_history').select('run_id').where('id', '=', jobId));
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
          .where('run_id', 'in', runOf(db))
          .where('name', '=', step)
          .where('status', '=', 'started')
          .returning('name')
          .execute()
      : db
          .deleteFrom('steps')
          .where('run_id', 'in', runOf(db))
          .where('name', '=', step)
          .where('status', '=', 'started')
          .returning('name')
          .execute(),
  );
  return rows.length > 0;
}

/**
 * Deletes `done` rows of `job_history` finished before `doneBefore` (and their steps) in passes of
 * `batch` (SQL_PURGE_DONE).
 */
export async function purgeDone(ctx: DriverContext, doneBefore: number, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await ctx.query<{ n: number }>(ctx.sql.purgeDone, [doneBefore, batch]);
    const n = Number(rows[0]?.n ?? 0);
    total += n;
    if (n < batch) return total;
  }
}
