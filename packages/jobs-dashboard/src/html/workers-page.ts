import type { WorkersJson } from '../read/worker-view.js';
import { type Html, html } from './escape.js';
import { layout } from './layout.js';
import type { PageContext } from './page-context.js';
import { durationCell, timeCell } from './time-cell.js';

/** Live workers: host, pid, queues, in flight of capacity, started, last heartbeat. */
export function workersPage(ctx: PageContext, data: WorkersJson): Html {
  const body =
    data.workers.length === 0
      ? html`<p class="empty">No worker has reported within its TTL.</p>`
      : html`<table class="workers"><thead><tr><th>Worker</th><th>Host</th><th class="num">PID</th><th>Queues</th><th class="num">In flight</th><th>Started</th><th>Last heartbeat</th></tr></thead><tbody>${data.workers.map(
          (worker) =>
            html`<tr data-worker="${worker.id}"><td class="mono">${worker.id}</td><td>${worker.host}</td><td class="num">${worker.pid}</td><td>${worker.queues.join(', ')}</td><td class="num">${worker.inFlight}/${worker.concurrency}</td><td>${timeCell(worker.startedAt, ctx.now)}</td><td>${durationCell(worker.lastSeenAgoMs)} ago</td></tr>`,
        )}</tbody></table>`;
  return layout(ctx, { title: 'Workers', nav: 'workers', body });
}
