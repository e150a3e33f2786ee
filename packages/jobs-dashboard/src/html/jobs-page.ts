import { attemptsLabel, JOB_STATES } from '@x/jobs-core';
import type { JobFilter } from '../read/job-filter.js';
import type { JobListJson, JobSummaryView } from '../read/job-summary-view.js';
import { actionForm } from './action-form.js';
import { type Html, html } from './escape.js';
import { layout } from './layout.js';
import { href, jobPath, type PageContext } from './page-context.js';
import { stateBadge } from './state-badge.js';
import { timeCell } from './time-cell.js';

function filterForm(ctx: PageContext, filter: JobFilter, dead: boolean): Html {
  const input = (name: string, label: string, value: string | undefined): Html =>
    html`<label>${label} <input name="${name}" value="${value ?? ''}" autocomplete="off"></label>`;
  const stateSelect = dead
    ? ''
    : html`<label>state <select name="state"><option value="">any</option>${JOB_STATES.map(
        (state) =>
          html`<option value="${state}"${state === filter.state ? html` selected` : ''}>${state}</option>`,
      )}</select></label>`;
  return html`<form class="filters" method="get" action="${href(ctx, dead ? '/dead' : '/jobs')}">
${input('queue', 'queue', filter.queue)}${stateSelect}${input('name', 'name', filter.name)}${input('tenant', 'tenant', filter.tenantId)}
<label>per page <input name="limit" type="number" min="1" max="1000" value="${filter.limit ?? ''}"></label>
<button type="submit">Filter</button></form>`;
}

function jobRow(ctx: PageContext, job: JobSummaryView): Html {
  return html`<tr data-job-id="${job.id}">
<td><a class="mono" href="${href(ctx, jobPath(job.id))}">${job.id}</a></td>
<td class="name">${job.name}</td>
<td>${job.queue}</td>
<td>${stateBadge(job.state)}</td>
<td>${job.tenantId ?? html`<span class="dim">none</span>`}</td>
<td class="num">${attemptsLabel(job)}</td>
<td>${timeCell(job.enqueuedAt, ctx.now)}</td>
<td>${timeCell(job.finishedAt, ctx.now)}</td>
<td class="error">${job.lastError === null ? '' : html`<code>${job.lastError.code}</code> ${job.lastError.message}`}</td>
<td>${job.state === 'dead' ? actionForm(ctx, { path: jobPath(job.id, 'retry'), label: 'Retry', name: 'retry' }) : ''}</td>
</tr>`;
}

/** The jobs page (and, with `dead`, the dead-letter page): filters, one page of rows, the next-page link. */
export function jobsPage(ctx: PageContext, filter: JobFilter, data: JobListJson, dead: boolean): Html {
  const path = dead ? '/dead' : '/jobs';
  const query = {
    queue: filter.queue,
    state: dead ? undefined : filter.state,
    name: filter.name,
    tenant: filter.tenantId,
    limit: filter.limit,
  };
  const pager = html`<p class="pager">${
    filter.cursor === undefined ? '' : html`<a href="${href(ctx, path, query)}">First page</a> `
  }${
    data.nextCursor === null
      ? html`<span class="dim">last page</span>`
      : html`<a rel="next" href="${href(ctx, path, { ...query, cursor: data.nextCursor })}">Next page</a>`
  }</p>`;
  const table =
    data.jobs.length === 0
      ? html`<p class="empty">${dead ? 'No dead jobs.' : 'No jobs match.'}</p>`
      : html`<table class="jobs"><thead><tr><th>ID</th><th>Job</th><th>Queue</th><th>State</th><th>Tenant</th><th class="num">Attempts</th><th>Enqueued</th><th>Finished</th><th>Last error</th><th></th></tr></thead>
<tbody>${data.jobs.map((job) => jobRow(ctx, job))}</tbody></table>`;
  const apiQuery = { ...query, state: dead ? 'dead' : filter.state, cursor: filter.cursor };
  return layout(ctx, {
    title: dead ? 'Dead letters' : 'Jobs',
    nav: dead ? 'dead' : 'jobs',
    body: [filterForm(ctx, filter, dead), table, pager],
    live: { src: href({ base: '' }, '/api/jobs', apiQuery), mode: 'refresh' },
  });
}
