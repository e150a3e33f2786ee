import type { JobDriver } from '@x/jobs-core';
import { formatInZone } from '../format/format-time.js';

/** What the dashboard needs of a cron task: the scheduler's `TaskHandle` has it. */
export interface CronTaskLike {
  describe(): {
    readonly name: string;
    readonly cron: string;
    readonly tz: string;
    readonly catchUp?: string;
    readonly jobs?: readonly string[];
  };
}

/**
 * The cron tasks to show and how to compute their fire times: pass the app's task handles and
 * `nextOccurrences` from `@x/jobs-scheduler`, so the page shows exactly what the scheduler fires
 * (the dashboard imports no scheduler code itself).
 */
export interface CronTasksSource<Task extends CronTaskLike = CronTaskLike> {
  readonly handles: readonly Task[];
  readonly nextOccurrences: (task: Task, n: number, from: number) => readonly Date[];
}

/** One upcoming fire time. */
export interface OccurrenceView {
  /** Epoch ms. */
  readonly at: number;
  /** Wall-clock time in the task's zone with its offset: `2026-11-30 03:00 GMT-5`. */
  readonly local: string;
}

/** A cron task with its next fire times and its stored schedule state. */
export interface CronTaskView {
  readonly name: string;
  readonly cron: string;
  readonly tz: string;
  readonly catchUp: string | null;
  readonly jobs: readonly string[];
  readonly next: readonly OccurrenceView[];
  /** The watermark the schedule store holds (occurrences up to it are settled), or null. */
  readonly settledThrough: number | null;
  readonly paused: boolean;
}

/** The shape of `api/tasks`. */
export interface CronTasksJson {
  readonly tasks: readonly CronTaskView[];
}

/**
 * Every task of `source` with its next `count` fire times after `now`, in its own zone, and what
 * `driver.schedules` stores for it (a driver without a schedule store shows none stored).
 */
export async function readCronTasks(
  source: CronTasksSource | undefined,
  driver: JobDriver,
  now: number,
  count = 3,
): Promise<CronTasksJson> {
  if (source === undefined) return { tasks: [] };
  const states = driver.schedules === undefined ? [] : await driver.schedules.list();
  return {
    tasks: source.handles.map((handle) => {
      const descriptor = handle.describe();
      const state = states.find((candidate) => candidate.task === descriptor.name);
      return {
        name: descriptor.name,
        cron: descriptor.cron,
        tz: descriptor.tz,
        catchUp: descriptor.catchUp ?? null,
        jobs: descriptor.jobs ?? [],
        next: source.nextOccurrences(handle, count, now).map((date) => ({
          at: date.getTime(),
          local: formatInZone(date.getTime(), descriptor.tz),
        })),
        settledThrough: state?.watermark ?? null,
        paused: state?.paused ?? false,
      };
    }),
  };
}
