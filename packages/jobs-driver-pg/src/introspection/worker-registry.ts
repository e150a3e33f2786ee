import type { WorkerInfo } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { epochMs } from '../row-values.js';
import { dbNow, fromEpochMs } from '../sql-time.js';

/** Upserts a worker's report; it is listed until `lastSeenAt + ttlMs`. */
export async function reportWorker(ctx: DriverContext, info: WorkerInfo, ttlMs: number): Promise<void> {
  const values = {
    queues: [...info.queues],
    concurrency: info.concurrency,
    in_flight: info.inFlight,
    host: info.host,
    pid: info.pid,
    started_at: fromEpochMs(info.startedAt),
    last_seen_at: fromEpochMs(info.lastSeenAt),
    expires_at: fromEpochMs(info.lastSeenAt + ttlMs),
  };
  await ctx.build((db) =>
    db
      .insertInto('workers')
      .values({ id: info.id, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute(),
  );
}

/** Removes a worker's report (on a clean stop). */
export async function removeWorker(ctx: DriverContext, id: string): Promise<void> {
  await ctx.build((db) => db.deleteFrom('workers').where('id', '=', id).execute());
}

/** Workers seen within their TTL, by id. */
export async function listWorkers(ctx: DriverContext): Promise<readonly WorkerInfo[]> {
  const rows = await ctx.build((db) =>
    db.selectFrom('workers').selectAll().where('expires_at', '>', dbNow).orderBy('id').execute(),
  );
  return rows.map((row) => ({
    id: row.id,
    queues: row.queues,
    concurrency: row.concurrency,
    inFlight: row.in_flight,
    host: row.host,
    pid: row.pid,
    startedAt: epochMs(row.started_at),
    lastSeenAt: epochMs(row.last_seen_at),
  }));
}
