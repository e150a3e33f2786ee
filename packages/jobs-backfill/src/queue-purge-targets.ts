import { type Duration, type JobDriver, jobDriver, parseDuration } from '@x/jobs-core';
import type { PurgeTarget } from './purge-target.js';

/** Where a queue target finds its driver. (Default: the ambient driver, read at each call) */
export interface QueueTargetOptions {
  readonly driver?: JobDriver;
}

/** The default retention of finished rows, as the worker's own `doneRetentionMs`: 7 days. */
export const DEFAULT_DONE_RETENTION = '7d';

/**
 * The queue's `done` rows (and their steps) finished more than `retention` before the pass's
 * clock reading, through `driver.introspect.purge`; dead rows are kept. A driver without
 * introspection has nothing to purge and answers 0. Named `x-jobs.done`.
 */
export function doneJobsPurgeTarget(
  options: QueueTargetOptions & { readonly retention?: Duration } = {},
): PurgeTarget {
  const retentionMs = parseDuration(options.retention ?? DEFAULT_DONE_RETENTION, 'retention');
  return {
    name: 'x-jobs.done',
    async purgeExpired(nowMs) {
      const driver = options.driver ?? jobDriver();
      return (await driver.introspect?.purge({ doneBefore: nowMs - retentionMs })) ?? 0;
    },
  };
}

/**
 * The queue's expired events, through `driver.events.purgeExpired`. That contract reads expiry
 * against the driver's own clock, not the pass's reading: an event's expiry was stamped by the
 * same clock, so the two agree. Named `x-jobs.events`.
 */
export function expiredEventsPurgeTarget(options: QueueTargetOptions = {}): PurgeTarget {
  return {
    name: 'x-jobs.events',
    purgeExpired: () => (options.driver ?? jobDriver()).events.purgeExpired(),
  };
}

/** Both queue targets: done rows past `doneRetention` and expired events. */
export function queuePurgeTargets(
  options: QueueTargetOptions & { readonly doneRetention?: Duration } = {},
): readonly PurgeTarget[] {
  const driver = options.driver === undefined ? {} : { driver: options.driver };
  return [
    doneJobsPurgeTarget({
      ...driver,
      ...(options.doneRetention === undefined ? {} : { retention: options.doneRetention }),
    }),
    expiredEventsPurgeTarget(driver),
  ];
}
