import type { JobState, QueueStats } from '@x/jobs-core';
import { JOB_STATES } from '@x/jobs-core';
import { isDue, type MemoryStore } from '../memory-store.js';

/** Per-queue counts for every queue with a row or a pause flag, sorted by queue name. */
export function queueStats(store: MemoryStore): QueueStats[] {
  const now = store.clock.now();
  const queues = new Map<string, { counts: Record<JobState, number>; oldestDueAt: number | null }>();
  const entry = (queue: string) => {
    let found = queues.get(queue);
    if (found === undefined) {
      found = {
        counts: Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>,
        oldestDueAt: null,
      };
      queues.set(queue, found);
    }
    return found;
  };
  for (const queue of store.pausedQueues) entry(queue);
  for (const row of store.jobs.values()) {
    const stats = entry(row.queue);
    stats.counts[row.state] += 1;
    if (isDue(row, now) && (stats.oldestDueAt === null || row.runAt < stats.oldestDueAt)) {
      stats.oldestDueAt = row.runAt;
    }
  }
  return [...queues.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([queue, { counts, oldestDueAt }]) => ({
      queue,
      counts,
      oldestReadyAgeMs: oldestDueAt === null ? null : Math.max(0, now - oldestDueAt),
      paused: store.pausedQueues.has(queue),
    }));
}
