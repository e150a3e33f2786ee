import { schedulerError } from './errors.js';
import type { SchedulerLeader } from './scheduler-leader.js';

/**
 * A leader that is always this process: no election at all. Safe only when exactly one
 * scheduler process ever runs; with two (a rolling update) both dispatch, and only the
 * watermark's compare-and-set keeps an occurrence from firing twice. The `unsafe: true` argument
 * is required so the choice is visible where it is made.
 */
export function inProcessLeader(options: { readonly unsafe: true }): SchedulerLeader {
  if (options?.unsafe !== true) {
    throw schedulerError('X_SCHEDULER_OPTIONS_INVALID', 'inProcessLeader: pass { unsafe: true } to use it.', {
      field: 'unsafe',
    });
  }
  return {
    description: 'in-process (unsafe: every node leads)',
    unsafe: true,
    acquire: async () => true,
    release: async () => undefined,
  };
}
