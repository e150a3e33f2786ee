import { attemptsLabel, isLiveState } from '@x/jobs-core';
import type { JobDetailView, StepView } from '../read/job-detail-view.js';
import { actionForm } from './action-form.js';
import { attemptErrors } from './attempt-errors.js';
import { type Html, type HtmlChild, html } from './escape.js';
import { layout } from './layout.js';
import { jobPath, type PageContext } from './page-context.js';
import { stateBadge } from './state-badge.js';
import { durationCell, timeCell } from './time-cell.js';

function field(label: string, value: HtmlChild): Html {
  return html`<dt>${label}</dt><dd>${value}</dd>`;
}

function json(value: unknown): Html {
  return html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;
}

function fields(ctx: PageContext, job: JobDetailView): Html {
  const progress = job.progress;
  return html`<dl class="fields">
${field('queue', job.queue)}${job.priority === 0 ? '' : field('priority', job.priority)}
${field('tenant', job.tenantId ?? html`<span class="dim">none</span>`)}
${field('idempotency key', html`<span class="mono" data-field="key">${job.idempotencyKey}</span>`)}
${field('attempts', html`<span data-field="attempts">${attemptsLabel(job)}</span>`)}
${field('enqueued', [timeCell(job.enqueuedAt, ctx.now), job.enqueuedBy === null ? '' : ` by ${job.enqueuedBy}`])}
${field('run at', timeCell(job.runAt, ctx.now))}
${job.startedAt === null ? '' : field('started', timeCell(job.startedAt, ctx.now))}
${job.finishedAt === null ? '' : field('finished', timeCell(job.finishedAt, ctx.now))}
${job.workerId === null || job.state !== 'running' ? '' : field('worker', [job.workerId, ' lease ', timeCell(job.leaseExpiresAt, ctx.now)])}
${job.waitingFor === null ? '' : field('waiting for', `event '${job.waitingFor}'`)}
${
  progress === null
    ? ''
    : field('progress', [
        progress.total === null
          ? html`<progress></progress>`
          : html`<progress value="${progress.current}" max="${progress.total}"></progress>`,
        ` ${progress.current}${progress.total === null ? '' : `/${progress.total}`}`,
      ])
}
${job.stopReason === null ? '' : field('stop reason', html`<span class="error">${job.stopReason}</span>`)}
${job.cancelReason === null ? '' : field('cancel reason', job.cancelReason)}
${job.lastError === null ? '' : field(job.state === 'done' ? 'earlier error' : 'last error', html`<span class="error"><code>${job.lastError.code}</code> ${job.lastError.message}</span>`)}
${job.traceparent === null ? '' : field('trace', html`<span class="mono">${job.traceparent}</span>`)}
</dl>`;
}

function actions(ctx: PageContext, job: JobDetailView): Html {
  const terminal = !isLiveState(job.state);
  const stepSelect = html`<select name="fromStep" aria-label="step">${job.steps.map(
    (step) => html`<option value="${step.name}">${step.name}</option>`,
  )}</select>`;
  return html`<div class="actions">${[
    terminal ? actionForm(ctx, { path: jobPath(job.id, 'retry'), label: 'Retry', name: 'retry' }) : '',
    terminal && job.steps.length > 0
      ? actionForm(ctx, {
          path: jobPath(job.id, 'retry'),
          label: 'Retry from step',
          name: 'retry-from-step',
          fields: stepSelect,
        })
      : '',
    job.state === 'delayed' || job.state === 'suspended'
      ? actionForm(ctx, { path: jobPath(job.id, 'promote'), label: 'Run now', name: 'promote' })
      : '',
    isLiveState(job.state)
      ? actionForm(ctx, {
          path: jobPath(job.id, 'cancel'),
          label: 'Cancel',
          name: 'cancel',
          tone: 'danger',
          confirm: 'Cancel this job?',
        })
      : '',
    job.state === 'running'
      ? ''
      : actionForm(ctx, {
          path: jobPath(job.id, 'remove'),
          label: 'Remove',
          name: 'remove',
          tone: 'danger',
          confirm: 'Delete this job and its steps?',
        }),
  ]}</div>`;
}

function resolveForms(ctx: PageContext, job: JobDetailView, step: StepView): Html {
  if (step.status !== 'started') return html``;
  const stepField = html`<input type="hidden" name="step" value="${step.name}">`;
  return html`${actionForm(ctx, {
    path: jobPath(job.id, 'resolve-step'),
    label: 'It ran',
    name: 'resolve-ran',
    fields: [
      stepField,
      html`<input type="hidden" name="ran" value="true"><input name="output" placeholder="output as JSON" value="null" aria-label="output">`,
    ],
  })}${actionForm(ctx, {
    path: jobPath(job.id, 'resolve-step'),
    label: 'It did not run',
    name: 'resolve-not-ran',
    fields: [stepField, html`<input type="hidden" name="ran" value="false">`],
  })}`;
}

function steps(ctx: PageContext, job: JobDetailView): Html {
  if (job.steps.length === 0) return html`<p class="dim">No steps recorded yet.</p>`;
  return html`<table class="steps"><thead><tr><th class="num">#</th><th>Step</th><th>Status</th><th>Started</th><th class="num">Duration</th><th>Error</th><th>Output (redacted)</th><th></th></tr></thead><tbody>${job.steps.map(
    (step) =>
      html`<tr data-step="${step.name}"><td class="num">${step.position}</td><td class="name">${step.name}</td><td>${stateBadge(step.status)}</td><td>${timeCell(step.startedAt, ctx.now)}</td><td class="num">${durationCell(step.durationMs)}</td><td class="error">${
        step.error === null ? '' : html`<code>${step.error.code}</code> ${step.error.message}`
      }</td><td>${step.output === null ? '' : json(step.output)}</td><td>${resolveForms(ctx, job, step)}</td></tr>`,
  )}</tbody></table>`;
}

function timeline(ctx: PageContext, job: JobDetailView): Html {
  return html`<ol class="timeline">${job.timeline.map(
    (entry) =>
      html`<li class="kind-${entry.kind}">${timeCell(entry.at, ctx.now)} <strong>${entry.label}</strong>${
        entry.status === null || entry.kind === 'finished' ? '' : html` ${stateBadge(entry.status)}`
      }${entry.durationMs === null ? '' : html` <span class="dim">(${durationCell(entry.durationMs)})</span>`}${
        entry.error === null
          ? ''
          : html` <span class="error"><code>${entry.error.code}</code> ${entry.error.message}</span>`
      }</li>`,
  )}</ol>`;
}

/** One job: its fields, why it stopped, the actions its state allows, its timeline, steps, input and result. */
export function jobPage(ctx: PageContext, job: JobDetailView): Html {
  const body = html`<p class="subtitle"><span class="name" data-field="name">${job.name}</span> <span class="mono dim">${job.id}</span> <span data-field="state">${stateBadge(job.state)}</span></p>
${job.stopped === null ? '' : html`<p class="stopped" data-field="stopped">${job.stopped}</p>`}
${actions(ctx, job)}
${fields(ctx, job)}
<h2>Timeline</h2>${timeline(ctx, job)}
<h2>Steps</h2>${steps(ctx, job)}
<h2>Failed attempts</h2>${attemptErrors(ctx, job)}
<h2>Input <span class="dim">(values of sensitive keys shown as [redacted])</span></h2>${json(job.payload)}
${job.state === 'done' ? html`<h2>Result</h2>${json(job.result)}` : ''}`;
  return layout(ctx, {
    title: 'Job',
    nav: 'none',
    body,
    live: { src: `/api${jobPath(job.id)}`, mode: 'refresh' },
  });
}
