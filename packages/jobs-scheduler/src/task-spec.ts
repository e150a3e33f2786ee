import type { CatchUpPolicy } from './catch-up.js';
import type { CronSchedule } from './cron-schedule.js';
import { schedulerError } from './errors.js';
import type { TaskEntry } from './task-entry.js';

/** What the scheduler reads off a task handle: its compiled schedule, policy and entries. */
export interface TaskSpec {
  readonly schedule: CronSchedule;
  readonly catchUp: CatchUpPolicy;
  readonly maxCatchUp: number;
  /** Calls the declaration's `enqueue` thunk and checks the pairs it answers. */
  entries(): readonly TaskEntry[];
}

// Keyed by the handle task() returned, so the handle itself carries no `.def` to read or mutate.
const specs = new WeakMap<object, TaskSpec>();

/** Remembers the spec behind a handle `task()` just built. */
export function recordTaskSpec(handle: object, spec: TaskSpec): void {
  specs.set(handle, spec);
}

/** The spec behind a handle built by `task()`; anything else is `X_SCHEDULER_OPTIONS_INVALID`. */
export function taskSpec(handle: unknown): TaskSpec {
  const spec = typeof handle === 'object' && handle !== null ? specs.get(handle) : undefined;
  if (spec === undefined) {
    throw schedulerError(
      'X_SCHEDULER_OPTIONS_INVALID',
      'tasks: every entry must be a handle returned by task() from @x/jobs-scheduler.',
      { field: 'tasks' },
    );
  }
  return spec;
}
