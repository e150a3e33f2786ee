import type { ClaimedJob } from '../driver/claim.js';
import type { JobsLogger } from '../telemetry/logger.js';

/** The first hand-back delay of a row whose job name this worker does not know. */
export const UNKNOWN_JOB_FIRST_DEFER_MS = 1_000;
/** The longest: a row this worker keeps claiming comes back at most once a minute from it. */
export const UNKNOWN_JOB_MAX_DEFER_MS = 60_000;

/**
 * What a worker does with a claimed row whose job name it has not registered: it never runs it
 * and never charges it an attempt. The row is handed back uncounted (a `release`, which also gives
 * back the attempt a claim-and-start counted) to run again after a delay that doubles per name,
 * from {@link UNKNOWN_JOB_FIRST_DEFER_MS} to {@link UNKNOWN_JOB_MAX_DEFER_MS}, so a worker of
 * another deployment that knows the name (a rolling deploy, a queue shared by two apps) claims it
 * meanwhile, and this one does not spin on it. The first meeting with each name is logged once,
 * at `error` (`jobs.job.unknown`, with the fix); later ones are silent.
 */
export class UnknownJobs {
  readonly #deferrals = new Map<string, number>();
  readonly #logger: JobsLogger;
  readonly #workerId: string;

  constructor(logger: JobsLogger, workerId: string) {
    this.#logger = logger;
    this.#workerId = workerId;
  }

  /** Records one deferral of `job` and answers how long its row goes back for, in ms. */
  defer(job: ClaimedJob): number {
    const times = (this.#deferrals.get(job.name) ?? 0) + 1;
    this.#deferrals.set(job.name, times);
    if (times === 1) {
      this.#logger.log('error', 'jobs.job.unknown', {
        workerId: this.#workerId,
        name: job.name,
        queue: job.queue,
        jobId: job.id,
        hint: `No job named '${job.name}' is registered in this worker: its rows are handed back uncounted (no attempt is spent) for a worker that knows it. Register it with defineJobs, or deploy the worker that has it.`,
      });
    }
    return Math.min(UNKNOWN_JOB_MAX_DEFER_MS, UNKNOWN_JOB_FIRST_DEFER_MS * 2 ** Math.min(times - 1, 16));
  }
}
