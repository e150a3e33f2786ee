import { JOB_STATES } from '@x/jobs-core';
import { formatDuration } from '../format/format-duration.js';
import type { LsJson, QueueView } from '../read/queue-view.js';
import { actionForm } from './action-form.js';
import { type Html, html } from './escape.js';
import { layout } from './layout.js';
import { href, type PageContext, queuePath } from './page-context.js';

function queueRow(ctx: PageContext, queue: QueueView): Html {
  const count = (state: string, n: number): Html =>
    html`<td class="num" data-field="${state}"><a href="${href(ctx, '/jobs', { queue: queue.queue, state })}">${n}</a></td>`;
  return html`<tr data-queue="${queue.queue}">
<th scope="row"><a href="${href(ctx, '/jobs', { queue: queue.queue })}">${queue.queue}</a></th>
${JOB_STATES.map((state) => count(state, queue.counts[state]))}
<td class="num" data-field="oldestReadyAgeMs">${queue.oldestReadyAgeMs === null ? '—' : formatDuration(queue.oldestReadyAgeMs)}</td>
<td data-field="paused">${queue.paused ? html`<span class="badge paused">paused</span>` : 'no'}</td>
<td>${
    queue.paused
      ? actionForm(ctx, { path: queuePath(queue.queue, 'resume'), label: 'Resume', name: 'resume' })
      : actionForm(ctx, { path: queuePath(queue.queue, 'pause'), label: 'Pause', name: 'pause' })
  }</td>
</tr>`;
}

/** The queues page: depth by state, oldest ready age, dead count, paused; updated in place by the script. */
export function queuesPage(ctx: PageContext, data: LsJson): Html {
  const body =
    data.queues.length === 0
      ? html`<p class="empty">No queues yet: nothing has been enqueued.</p>`
      : html`<table class="queues" data-queues>
<thead><tr><th>Queue</th>${JOB_STATES.map((state) => html`<th class="num">${state}</th>`)}<th class="num">Oldest ready</th><th>Paused</th><th></th></tr></thead>
<tbody>${data.queues.map((queue) => queueRow(ctx, queue))}</tbody>
</table>`;
  return layout(ctx, { title: 'Queues', nav: 'queues', body, live: { src: '/api/queues', mode: 'queues' } });
}
