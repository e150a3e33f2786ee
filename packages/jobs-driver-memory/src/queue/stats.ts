import type { JobState, QueueStats } from '@x/jobs-core';
import { JOB_STATES } from '@x/jobs-core';
import { indexedRows } from '../claim-index.js';
import { isDue, type MemoryStore } from '../memory-store.js';

/**
 * Per-queue counts for every queue with a row or a pause flag, sorted by queue name. The counts
 * are kept as rows change state; the oldest due age looks only at the rows the claim index holds
 * (the live ones), so a store full of finished rows answers without walking them.
 */
export function queueStats(store: MemoryStore): QueueStats[] {
  const now = store.clock.now();
  const queues = new Set<string>([...store.stateCounts.keys(), ...store.pausedQueues]);
  return [...queues]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((queue) => {
      const counts = store.stateCounts.get(queue);
      let oldestDueAt: number | null = null;
      for (const row of indexedRows(store.claimIndex, queue)) {
        if (isDue(row, now) && (oldestDueAt === null || row.runAt < oldestDueAt)) oldestDueAt = row.runAt;
      }
      return {
        queue,
        counts: counts === undefined ? zeroCounts() : { ...counts },
        oldestReadyAgeMs: oldestDueAt === null ? null : Math.max(0, now - oldestDueAt),
        paused: store.pausedQueues.has(queue),
      };
    });
}

function zeroCounts(): Record<JobState, number> {
  return Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;
}
