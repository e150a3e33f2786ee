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
