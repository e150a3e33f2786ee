import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';

let installed: JobDriver | undefined;

/** Installs the process-wide driver that enqueues publish to when no facade is installed. */
export function setJobDriver(driver: JobDriver): void {
  installed = driver;
}

/** The installed driver. Throws `X_DRIVER_UNAVAILABLE` when none is installed: an enqueue is never dropped. */
export function jobDriver(): JobDriver {
  if (installed === undefined) {
    throw coreError(
      'X_DRIVER_UNAVAILABLE',
      'No job driver is installed: call setJobDriver(driver) at boot (or install a facade with setJobsFacade).',
    );
  }
  return installed;
}

/** The installed driver, or undefined. */
export function maybeJobDriver(): JobDriver | undefined {
  return installed;
}

/** Uninstalls the driver (tests, shutdown). */
export function resetJobDriver(): void {
  installed = undefined;
}
