import type { ScheduleState, ScheduleStore } from '@x/jobs-core/driver';
import { schedulerError } from './errors.js';

/** A schedule store that lives in this process only, marked unsafe. */
export interface InProcessScheduleStore extends ScheduleStore {
  readonly unsafe: true;
}

/**
 * Watermarks and pause flags in a Map: lost on restart, so a restarted scheduler starts over
 * (it cannot see what it missed) and other nodes see nothing. For tests and single-process
 * tools only; the `unsafe: true` argument is required so the choice is visible where it is made.
 */
export function inProcessState(options: {
  readonly unsafe: true;
  /** Stamps `updatedAt`. (Default: Date.now) */
  readonly now?: () => number;
}): InProcessScheduleStore {
  if (options?.unsafe !== true) {
    throw schedulerError('X_SCHEDULER_OPTIONS_INVALID', 'inProcessState: pass { unsafe: true } to use it.', {
      field: 'unsafe',
    });
  }
  const now = options.now ?? Date.now;
  const rows = new Map<string, ScheduleState>();
  return {
    unsafe: true,
    get: async (task) => rows.get(task) ?? null,
    list: async () => [...rows.values()],
    async advance(task, expected, next) {
      const row = rows.get(task);
      if ((row?.watermark ?? null) !== expected) return false;
      rows.set(task, { task, watermark: next, paused: row?.paused ?? false, updatedAt: now() });
      return true;
    },
    async setPaused(task, paused) {
      const row = rows.get(task);
      rows.set(task, { task, watermark: row?.watermark ?? null, paused, updatedAt: now() });
    },
  };
}
