import type { JobErrorRecord, JobRecord, JobState, StopReason } from '@x/jobs-core';

/** One row in a job list (`x-jobs jobs --json`, `x-jobs dead --json`, the jobs page). Times are epoch ms. */
export interface JobSummaryView {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly state: JobState;
  readonly tenantId: string | null;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly enqueuedAt: number;
  readonly runAt: number;
  readonly finishedAt: number | null;
  readonly stopReason: StopReason | null;
  readonly lastError: JobErrorRecord | null;
}

/** The `--json` shape of a job list: one page, newest enqueued first. */
export interface JobListJson {
  readonly jobs: readonly JobSummaryView[];
  /** Pass as the cursor for the next page; null on the last. */
  readonly nextCursor: string | null;
}

/** The list fields of a row (no payload: lists never show input). */
export function toJobSummary(job: JobRecord): JobSummaryView {
  return {
    id: job.id,
    name: job.name,
    queue: job.queue,
    state: job.state,
    tenantId: job.tenantId,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    enqueuedAt: job.enqueuedAt,
    runAt: job.runAt,
    finishedAt: job.finishedAt,
    stopReason: job.stopReason,
    lastError: job.lastError,
  };
}
