import type { QueueStats } from '@x/jobs-core';
import { callScript, type DriverContext } from '../driver-context.js';
import { STATS_SCRIPT } from '../lua/stats.lua.js';

/** Per-queue counts (the stats script), sorted by queue name. */
export async function queueStats(context: DriverContext): Promise<readonly QueueStats[]> {
  const reply = (await callScript(context, 'stats', STATS_SCRIPT, [context.doneTtlMs])) as (
    | string
    | number
  )[][];
  return reply
    .map((row) => ({
      queue: String(row[0]),
      paused: Number(row[1]) === 1,
      counts: {
        ready: Number(row[2]),
        delayed: Number(row[3]),
        running: Number(row[4]),
        suspended: Number(row[5]),
        done: Number(row[6]),
        dead: Number(row[7]),
        cancelled: Number(row[8]),
      },
      oldestReadyAgeMs: Number(row[9]) < 0 ? null : Number(row[9]),
    }))
    .sort((a, b) => a.queue.localeCompare(b.queue));
}
