import type { DriverContext } from '../driver-context.js';

/** Pauses a queue: SQL_CLAIM skips it until it is resumed. Idempotent. */
export async function pauseQueue(ctx: DriverContext, queue: string): Promise<void> {
  await ctx.build((db) =>
    db
      .insertInto('paused_queues')
      .values({ queue })
      .onConflict((oc) => oc.column('queue').doNothing())
      .execute(),
  );
}

/** Resumes a queue and wakes its listeners. Idempotent. */
export async function resumeQueue(ctx: DriverContext, queue: string): Promise<void> {
  await ctx.transaction(async (trx, session) => {
    await trx.deleteFrom('paused_queues').where('queue', '=', queue).execute();
    await session.query(ctx.sql.notify, [queue]);
  });
}

/** The paused queues, by name. */
export async function pausedQueues(ctx: DriverContext): Promise<readonly string[]> {
  const rows = await ctx.build((db) =>
    db.selectFrom('paused_queues').select('queue').orderBy('queue').execute(),
  );
  return rows.map((row) => row.queue);
}
