import { failureStack } from '@x/jobs-core';
import type { JobDetailView } from '../read/job-detail-view.js';
import { type Html, html } from './escape.js';
import type { PageContext } from './page-context.js';
import { timeCell } from './time-cell.js';

/**
 * The job's failed attempts, oldest first: attempt, when, code, class and message, the step that
 * threw, and the stack with its causes in a `<details>` (collapsed by default: no script, so the
 * strict CSP holds). Every value is escaped text.
 */
export function attemptErrors(ctx: PageContext, job: JobDetailView): Html {
  if (job.errors.length === 0) return html`<p class="dim">No failed attempts.</p>`;
  return html`<ol class="attempt-errors">${job.errors.map(
    (error) =>
      html`<li data-attempt="${error.attempt}"><span class="dim">attempt ${error.attempt}</span> ${timeCell(error.at, ctx.now)} <span class="error"><code>${error.code}</code> <strong>${error.name}</strong>: ${error.message}</span>${
        error.step === null
          ? ''
          : html` <span class="dim">in step</span> <code data-field="step">${error.step}</code>`
      }${error.truncated ? html` <span class="dim">(cut to fit)</span>` : ''}<details><summary>stack</summary><pre class="stack">${failureStack(error)}</pre></details></li>`,
  )}</ol>`;
}
