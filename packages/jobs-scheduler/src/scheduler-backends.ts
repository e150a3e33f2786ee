import type { JobDriver } from '@x/jobs-core';
import type { ScheduleStore } from '@x/jobs-core/driver';
import { schedulerError } from './errors.js';
import { leaseLeader } from './lease-leader.js';
import type { SchedulerLeader } from './scheduler-leader.js';

/** Where a scheduler elects its leader and keeps its watermarks. */
export interface SchedulerBackends {
  readonly leader: SchedulerLeader;
  readonly state: ScheduleStore;
}

/**
 * Picks the leader and the state: the ones passed, else a lease in `driver.leases` (held for
 * `leaseTtlMs`) and the watermarks in `driver.schedules`. A driver lacking either, with nothing passed in its place, is
 * `X_SCHEDULER_UNSAFE` — never a silent in-memory fallback, which would fire once per replica and
 * forget what it missed on every restart.
 */
export function schedulerBackends(
  driver: JobDriver,
  options: {
    readonly leader?: SchedulerLeader | undefined;
    readonly state?: ScheduleStore | undefined;
    readonly leaseTtlMs: number;
  },
): SchedulerBackends {
  const leader =
    options.leader ??
    (driver.leases === undefined ? undefined : leaseLeader(driver.leases, { ttlMs: options.leaseTtlMs }));
  const state = options.state ?? driver.schedules;
  const missing = [
    ...(leader === undefined ? ['a lease store (driver.leases) for the leader'] : []),
    ...(state === undefined ? ['a schedule store (driver.schedules) for the watermarks'] : []),
  ];
  if (leader === undefined || state === undefined) {
    throw schedulerError(
      'X_SCHEDULER_UNSAFE',
      `The '${driver.name}' driver has no ${missing.join(' and no ')}. Use a driver that has them, or pass ` +
        'leader: inProcessLeader({ unsafe: true }) / state: inProcessState({ unsafe: true }) knowing that ' +
        'every replica then fires and a restart forgets what it missed.',
      {
        driver: driver.name,
        missing: [...(leader === undefined ? ['leases'] : []), ...(state === undefined ? ['schedules'] : [])],
      },
    );
  }
  return { leader, state };
}
