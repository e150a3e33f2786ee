import type { WorkerInfo } from '@x/jobs-core';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'listing order';

/**
 * Three names that sort `-a`, `-b`, `-c` under every collation (they differ only in the last
 * ASCII letter), answered in the order `-c`, `-a`, `-b` so an unsorted answer shows.
 */
function unsortedNames(h: DriverHarness, prefix: string): readonly [string, string, string] {
  const base = h.unique(prefix);
  return [`${base}-c`, `${base}-a`, `${base}-b`];
}

/** `names` as they appear in `listed`. */
const orderIn = (listed: readonly string[], names: readonly string[]) =>
  listed.filter((name) => names.includes(name));

/** The operator lists answer in a stable order: sorted by their name. */
export const listingOrderCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'stats answers its queues sorted by name',
    async run(h) {
      const names = unsortedNames(h, 'q');
      for (const queue of names) await h.enqueue(queue);
      const listed = (await h.driver.stats()).map((stats) => stats.queue);
      expect(orderIn(listed, names)).toEqual([...names].sort());
    },
  },
  {
    group,
    name: 'pausedQueues answers the paused queues sorted by name',
    async run(h) {
      const names = unsortedNames(h, 'q');
      for (const queue of names) await h.introspect.pause(queue);
      expect(orderIn(await h.introspect.pausedQueues(), names)).toEqual([...names].sort());
    },
  },
  {
    group,
    name: 'workers answers the reports sorted by worker id',
    async run(h) {
      const names = unsortedNames(h, 'w');
      const at = h.driver.now();
      for (const id of names) {
        const info: WorkerInfo = {
          id,
          queues: [h.queue],
          concurrency: 1,
          inFlight: 0,
          host: 'host-1',
          pid: 1,
          startedAt: at,
          lastSeenAt: at,
        };
        await h.introspect.reportWorker(info, 3_600_000);
      }
      const listed = (await h.introspect.workers()).map((worker) => worker.id);
      expect(orderIn(listed, names)).toEqual([...names].sort());
    },
  },
  {
    group,
    name: 'schedules.list answers the tasks sorted by name',
    async run(h) {
      const names = unsortedNames(h, 'task');
      for (const task of names) await h.schedules.setPaused(task, false);
      const listed = (await h.schedules.list()).map((state) => state.task);
      expect(orderIn(listed, names)).toEqual([...names].sort());
    },
  },
];
