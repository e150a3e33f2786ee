import type { JobErrorRecord, JobRecord, JobState, StopReason } from '@x/jobs-core';
import type { Palette } from '../output/colour.js';
import { formatRelative } from '../output/format-time.js';
import { renderTable } from '../output/table.js';
import { colourState } from './state-colour.js';

/** One row in a job list (`x-jobs dead --json`). Times are epoch ms. */
export interface JobSummaryView {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly state: JobState;
  readonly tenantId: string | null;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly enqueuedAt: number;
  readonly finishedAt: number | null;
  readonly stopReason: StopReason | null;
  readonly lastError: JobErrorRecord | null;
}

/** The `--json` shape of a job list: one page, newest enqueued first. */
export interface JobListJson {
  readonly jobs: readonly JobSummaryView[];
  /** Pass as `--cursor` for the next page; null on the last. */
  readonly nextCursor: string | null;
}

/** The list fields of a row (no payload: lists never print input). */
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
    finishedAt: job.finishedAt,
    stopReason: job.stopReason,
    lastError: job.lastError,
  };
}

/** A job list as a table, with a pointer to the next page. */
export function renderJobList(data: JobListJson, p: Palette, now: number, empty: string): string {
  if (data.jobs.length === 0) return p.dim(empty);
  const table = renderTable(
    [
      { header: 'ID' },
      { header: 'JOB' },
      { header: 'QUEUE' },
      { header: 'STATE' },
      { header: 'ATTEMPTS', align: 'right' },
      { header: 'FINISHED' },
      { header: 'STOP REASON' },
      { header: 'LAST ERROR' },
    ],
    data.jobs.map((job) => [
      job.id,
      p.bold(job.name),
      job.queue,
      colourState(job.state, p),
      `${job.attempts}/${job.maxAttempts}`,
      job.finishedAt === null ? p.dim('—') : formatRelative(job.finishedAt, now),
      job.stopReason ?? p.dim('—'),
      job.lastError === null
        ? p.dim('—')
        : `${p.red(job.lastError.code)} ${truncate(job.lastError.message, 60)}`,
    ]),
    p.dim,
  );
  return data.nextCursor === null ? table : `${table}\n${p.dim(`more: --cursor ${data.nextCursor}`)}`;
}

function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
