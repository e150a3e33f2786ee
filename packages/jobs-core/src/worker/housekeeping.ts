import { hostname } from 'node:os';
import type { JobDriver } from '../driver/job-driver.js';
import { errorCode } from '../errors/jobs-error.js';
import type { JobsLogger } from '../telemetry/logger.js';

/** How often the worker reports itself for `x-jobs workers`, and how long a report lives. */
const REPORT_EVERY_MS = 10_000;
const REPORT_TTL_MS = 30_000;
/** How often done rows are purged. */
const PURGE_EVERY_MS = 3_600_000;
const WEEK_MS = 7 * 86_400_000;

/** What housekeeping reads off its worker. */
export interface HousekeepingHost {
  readonly id: string;
  readonly driver: JobDriver;
  readonly logger: JobsLogger;
  readonly queues: readonly string[];
  readonly startedAt: number;
  /** The worker's `doneRetentionMs` option, if set. */
  readonly doneRetentionMs: number | undefined;
  capacity(): number;
  inFlight(): number;
}

/**
 * Starts a worker's background chores on a driver with introspection: a report every 10 s (for
 * `x-jobs workers`, living 30 s) and an hourly purge of `done` rows older than the retention
 * (the option, else the driver's, else a week; 0 turns it off). Answers the cleanups to run at stop.
 */
export function startHousekeeping(host: HousekeepingHost): (() => void)[] {
  const introspect = host.driver.introspect;
  if (introspect === undefined) return [];
  const { logger } = host;
  const report = () => {
    void introspect
      .reportWorker(
        {
          id: host.id,
          queues: host.queues,
          concurrency: host.capacity(),
          inFlight: host.inFlight(),
          host: hostname(),
          pid: process.pid,
          startedAt: host.startedAt,
          lastSeenAt: host.driver.now(),
        },
        REPORT_TTL_MS,
      )
      .catch((error: unknown) =>
        logger.log('debug', 'jobs.worker.report-failed', {
          workerId: host.id,
          code: errorCode(error) ?? null,
        }),
      );
  };
  report();
  const reporter = setInterval(report, REPORT_EVERY_MS);
  reporter.unref?.();
  const cleanups = [() => clearInterval(reporter)];
  const retention = host.doneRetentionMs ?? host.driver.doneRetentionMs ?? WEEK_MS;
  if (retention > 0) {
    const purge = () => {
      void introspect
        .purge({ doneBefore: host.driver.now() - retention })
        .then((removed) => {
          if (removed > 0) logger.log('info', 'jobs.purge.done', { removed });
        })
        .catch((error: unknown) =>
          logger.log('warn', 'jobs.purge.failed', { code: errorCode(error) ?? null }),
        );
    };
    const purger = setInterval(purge, PURGE_EVERY_MS);
    purger.unref?.();
    cleanups.push(() => clearInterval(purger));
  }
  return cleanups;
}
