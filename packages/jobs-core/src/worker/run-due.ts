import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';

/** What {@link runDue} needs of its worker. */
export interface RunDueHost {
  readonly driver: JobDriver;
  readonly workerId: string;
  readonly queues: readonly string[];
  /** Rows claimed (and started) per round: the worker's capacity, at least 1. */
  readonly limit: number;
  readonly visibilityTimeoutMs: number;
  /** Runs one claimed job to its settle; `sentAt` is when its claim was sent (the lease's start). */
  runToEnd(job: ClaimedJob, sentAt: number): Promise<void>;
}

/**
 * `worker.runDue()`: claims and starts every due row of the worker's queues, round after round,
 * each round run to its settles before the next claim, until a claim answers nothing. Answers how
 * many jobs ran. No claim loop, no wake: what a test harness or a one-shot script calls.
 */
export async function runDue(host: RunDueHost): Promise<number> {
  let ran = 0;
  for (;;) {
    const sentAt = performance.now();
    const jobs = await host.driver.claim({
      queues: [...host.queues],
      limit: host.limit,
      workerId: host.workerId,
      visibilityTimeoutMs: host.visibilityTimeoutMs,
      start: host.limit, // every row claimed here runs now
    });
    if (jobs.length === 0) return ran;
    ran += jobs.length;
    await Promise.all(jobs.map((job) => host.runToEnd(job, sentAt)));
  }
}
