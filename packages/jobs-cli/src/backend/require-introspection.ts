import type { JobDriver, JobIntrospection } from '@x/jobs-core';
import { cliError } from '../errors.js';

/** The driver's introspection, or `X_CLI_INTROSPECTION_UNSUPPORTED` naming the driver. */
export function requireIntrospection(driver: JobDriver): JobIntrospection {
  if (driver.introspect === undefined) {
    throw cliError(
      'X_CLI_INTROSPECTION_UNSUPPORTED',
      `The ${driver.name} driver has no introspection, so this command cannot run on it.`,
      { driver: driver.name },
    );
  }
  return driver.introspect;
}
