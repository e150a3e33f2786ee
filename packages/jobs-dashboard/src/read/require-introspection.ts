import type { JobDriver, JobIntrospection } from '@x/jobs-core';
import { dashboardError } from '../errors.js';

/** The driver's introspection, or `X_DASHBOARD_INTROSPECTION_UNSUPPORTED` naming the driver. */
export function requireIntrospection(driver: JobDriver): JobIntrospection {
  if (driver.introspect === undefined) {
    throw dashboardError(
      'X_DASHBOARD_INTROSPECTION_UNSUPPORTED',
      `The ${driver.name} driver has no introspection, so jobs cannot be listed or operated on.`,
      { driver: driver.name },
    );
  }
  return driver.introspect;
}
