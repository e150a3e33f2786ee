import { attemptsLabel } from '@x/jobs-core';
import type { JobListJson } from '@x/jobs-dashboard';
import { formatRelative } from '@x/jobs-dashboard';
import type { Palette } from '../output/colour.js';
import { renderTable } from '../output/table.js';
import { colourState } from './state-colour.js';

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
      attemptsLabel(job),
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
