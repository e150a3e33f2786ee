import type { PurgeHandle } from './purge.js';

/** Every hour, on the hour. */
export const DEFAULT_PURGE_CRON = '0 * * * *';

/**
 * A cron task declaration that fires `sweep`, shaped for `@x/jobs-scheduler`'s `task()`. This
 * package imports only `@x/jobs-core`, so it hands the app the declaration instead of calling
 * `task()` itself: the app owns the scheduler, and the firing stays a plain task (leader lease,
 * catch-up, `x-jobs tasks`) rather than a self-re-arming job nobody can list or pause.
 *
 * ```ts
 * export const purgeHourly = task(purgeSchedule(sweep));
 * ```
 */
export function purgeSchedule(
  sweep: PurgeHandle,
  options: { readonly name?: string; readonly cron?: string; readonly tz?: string } = {},
): {
  readonly name: string;
  readonly cron: string;
  readonly tz: string;
  readonly catchUp: 'skip';
  readonly enqueue: () => readonly [readonly [PurgeHandle, Record<string, never>]];
} {
  return {
    name: options.name ?? `${sweep.name}.hourly`,
    cron: options.cron ?? DEFAULT_PURGE_CRON,
    tz: options.tz ?? 'UTC',
    catchUp: 'skip',
    enqueue: () => [[sweep, {}]],
  };
}
