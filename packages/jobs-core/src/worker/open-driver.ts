import type { JobDriver } from '../driver/job-driver.js';
import { isConfigurationError } from '../errors/configuration-error.js';
import { errorCode } from '../errors/jobs-error.js';
import type { JobsLogger } from '../telemetry/logger.js';

/** The longest `worker.start()` waits for the backend to open before claiming anyway. */
export const OPEN_WAIT_MS = 10_000;

/**
 * Opens the worker's driver at `start()` (`driver.ready()`, when it has one). A configuration
 * error (a missing database, refused credentials, a malformed URL, an unknown host) is logged at
 * `error` (`jobs.worker.misconfigured`, with the message and `meta.setting`) and rethrown: the
 * worker does not start, and a process that awaits `start()` exits non-zero with it. An outage is
 * logged at `warn` (`jobs.worker.backend-unavailable`) and the worker starts anyway: its claim
 * loop retries, and `worker.health()` reports it unready until a claim lands. An open that takes
 * longer than {@link OPEN_WAIT_MS} is left to finish in the background.
 */
export async function openDriver(driver: JobDriver, logger: JobsLogger, workerId: string): Promise<void> {
  if (driver.ready === undefined) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<'waited'>((resolve) => {
    timer = setTimeout(() => resolve('waited'), OPEN_WAIT_MS);
  });
  try {
    await Promise.race([driver.ready(), waited]);
  } catch (error) {
    if (isConfigurationError(error)) {
      logger.log('error', 'jobs.worker.misconfigured', {
        workerId,
        code: error.code,
        setting: error.meta.setting ?? null,
        message: error.message,
      });
      throw error;
    }
    logger.log('warn', 'jobs.worker.backend-unavailable', { workerId, code: errorCode(error) ?? null });
  } finally {
    clearTimeout(timer);
  }
}
