import type { JobDriver } from '@x/jobs-core';
import { schedulerError } from './errors.js';
import type { TaskHandle } from './task.js';

/**
 * Pauses a task fleet-wide: every scheduler on this driver stops dispatching it at its next round
 * and its watermark stays where it was. Idempotent. A driver without `schedules` is
 * `X_SCHEDULER_UNSAFE`.
 */
export function pauseTask(
  driver: Pick<JobDriver, 'name' | 'schedules'>,
  task: TaskHandle | string,
): Promise<void> {
  return setPaused(driver, task, true);
}

/**
 * Resumes a paused task. What it missed while paused is decided by its own `catchUp` policy at
 * the next round (walked from the watermark it had when paused, bounded by `maxCatchUp`).
 */
export function resumeTask(
  driver: Pick<JobDriver, 'name' | 'schedules'>,
  task: TaskHandle | string,
): Promise<void> {
  return setPaused(driver, task, false);
}

async function setPaused(
  driver: Pick<JobDriver, 'name' | 'schedules'>,
  task: TaskHandle | string,
  paused: boolean,
): Promise<void> {
  if (driver.schedules === undefined) {
    throw schedulerError(
      'X_SCHEDULER_UNSAFE',
      `The '${driver.name}' driver has no schedule store (driver.schedules), so a task cannot be paused fleet-wide.`,
      { driver: driver.name, missing: ['schedules'] },
    );
  }
  await driver.schedules.setPaused(typeof task === 'string' ? task : task.name, paused);
}
