import { JOB_STATES, type JobState, type QueueStats } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';

interface StatsRow {
  readonly queue: string;
  readonly state: JobState | null;
  readonly n: number;
  readonly oldest_due_age_ms: number | null;
  readonly paused: boolean;
}

/** Per-queue counts for every queue with a row or a pause flag (SQL_STATS), by queue name. */
export async function queueStats(ctx: DriverContext): Promise<readonly QueueStats[]> {
  const rows = await ctx.query<StatsRow>(ctx.sql.stats);
  const byQueue = new Map<
    string,
    { counts: Record<JobState, number>; oldestReadyAgeMs: number | null; paused: boolean }
  >();
  for (const row of rows) {
    let entry = byQueue.get(row.queue);
    if (entry === undefined) {
      const counts = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;
      entry = { counts, oldestReadyAgeMs: null, paused: false };
      byQueue.set(row.queue, entry);
    }
    if (row.state !== null) entry.counts[row.state] = Number(row.n);
    if (row.oldest_due_age_ms !== null) {
      const age = Math.max(0, Number(row.oldest_due_age_ms));
      entry.oldestReadyAgeMs = Math.max(entry.oldestReadyAgeMs ?? 0, age);
    }
    entry.paused ||= row.paused;
  }
  return [...byQueue.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([queue, entry]) => ({ queue, ...entry }));
}
