import type { JobState, QueueStats } from '@x/jobs-core';
import type { Palette } from '../output/colour.js';
import { formatDuration } from '../output/format-duration.js';
import { renderTable } from '../output/table.js';

/** One queue in `x-jobs ls --json`. */
export interface QueueView {
  readonly queue: string;
  /** Rows per state; every state present. */
  readonly counts: Readonly<Record<JobState, number>>;
  /** Rows waiting to run: `ready + delayed`. */
  readonly depth: number;
  /** Age in ms of the oldest row due now, or null. */
  readonly oldestReadyAgeMs: number | null;
  /** Dead-lettered rows kept. */
  readonly dead: number;
  readonly paused: boolean;
}

/** The `--json` shape of `x-jobs ls`. */
export interface LsJson {
  readonly queues: readonly QueueView[];
}

/** A driver's stats as `ls` reports them, sorted by queue name. */
export function toQueueViews(stats: readonly QueueStats[]): QueueView[] {
  return [...stats]
    .sort((a, b) => a.queue.localeCompare(b.queue))
    .map((s) => ({
      queue: s.queue,
      counts: s.counts,
      depth: s.counts.ready + s.counts.delayed,
      oldestReadyAgeMs: s.oldestReadyAgeMs,
      dead: s.counts.dead,
      paused: s.paused,
    }));
}

/** The `ls` table. */
export function renderQueues(data: LsJson, p: Palette): string {
  if (data.queues.length === 0) return p.dim('No queues yet: nothing has been enqueued.');
  const number = (n: number, style?: (text: string) => string): string =>
    n === 0 ? p.dim('0') : style === undefined ? String(n) : style(String(n));
  return renderTable(
    [
      { header: 'QUEUE' },
      { header: 'READY', align: 'right' },
      { header: 'DELAYED', align: 'right' },
      { header: 'RUNNING', align: 'right' },
      { header: 'SUSPENDED', align: 'right' },
      { header: 'DONE', align: 'right' },
      { header: 'DEAD', align: 'right' },
      { header: 'CANCELLED', align: 'right' },
      { header: 'OLDEST READY', align: 'right' },
      { header: 'PAUSED' },
    ],
    data.queues.map((q) => [
      p.bold(q.queue),
      number(q.counts.ready),
      number(q.counts.delayed),
      number(q.counts.running, p.cyan),
      number(q.counts.suspended),
      number(q.counts.done, p.green),
      number(q.dead, p.red),
      number(q.counts.cancelled),
      q.oldestReadyAgeMs === null ? p.dim('—') : formatDuration(q.oldestReadyAgeMs),
      q.paused ? p.yellow('paused') : p.dim('no'),
    ]),
    p.dim,
  );
}
