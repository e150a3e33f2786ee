import type { CoreErrorCode } from '../errors/codes.js';
import { coreError } from '../errors/core-error.js';
import type { JobsError } from '../errors/jobs-error.js';
import type { JobsLogger } from '../telemetry/logger.js';

/**
 * Drains the worker on the first SIGTERM or SIGINT (logging `jobs.worker.draining` with the
 * signal). Answers the cleanup that removes both listeners; a listener fires at most once.
 */
export function drainOnSignals(logger: JobsLogger, workerId: string, drain: () => Promise<void>): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.log('info', 'jobs.worker.draining', { workerId, signal });
    void drain();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return () => {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  };
}

/** The reason a drain interrupts every held job with: `X_DRAINING`, handed back uncounted. */
export function drainingError(workerId: string): JobsError<CoreErrorCode> {
  return coreError('X_DRAINING', `worker ${workerId} is shutting down; the job is handed back uncounted.`, {
    workerId,
  });
}
