import type { LsJson } from '@x/jobs-dashboard';
import { formatDuration } from '@x/jobs-dashboard';
import type { Palette } from '../output/colour.js';
import { renderTable } from '../output/table.js';

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
