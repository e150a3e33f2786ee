import type { CronTasksJson } from '../read/cron-task-view.js';
import { type Html, html } from './escape.js';
import { layout } from './layout.js';
import type { PageContext } from './page-context.js';
import { timeCell } from './time-cell.js';

/** Cron tasks with their next fire times in their own zones and what the schedule store holds. */
export function tasksPage(ctx: PageContext, data: CronTasksJson, configured: boolean): Html {
  const body = !configured
    ? html`<p class="empty">No tasks were given to the dashboard (the <code>tasks</code> option).</p>`
    : data.tasks.length === 0
      ? html`<p class="empty">The app registers no cron tasks.</p>`
      : html`<table class="tasks"><thead><tr><th>Task</th><th>Cron</th><th>Zone</th><th>Next fire times (in its zone)</th><th>Settled through</th><th>Paused</th><th>Enqueues</th></tr></thead><tbody>${data.tasks.map(
          (task) =>
            html`<tr data-task="${task.name}"><td class="name">${task.name}</td><td class="mono">${task.cron}</td><td>${task.tz}</td><td><ul class="plain">${task.next.map(
              (occurrence) =>
                html`<li>${occurrence.local} <span class="dim">(${timeCell(occurrence.at, ctx.now)})</span></li>`,
            )}</ul></td><td>${timeCell(task.settledThrough, ctx.now)}</td><td>${task.paused ? html`<span class="badge paused">paused</span>` : 'no'}</td><td>${task.jobs.join(', ')}</td></tr>`,
        )}</tbody></table>`;
  return layout(ctx, { title: 'Cron tasks', nav: 'tasks', body });
}
