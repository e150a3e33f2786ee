import { type Html, type HtmlChild, html } from './escape.js';
import { href, type PageContext } from './page-context.js';

/** One POST button for an action, with its CSRF token and the page to return to. */
export interface ActionFormSpec {
  /** The action path below the base, e.g. `/jobs/<id>/retry`. */
  readonly path: string;
  readonly label: string;
  /** Asked with `confirm()` before submitting (when the script runs). */
  readonly confirm?: string;
  /** `danger` styles destructive actions. */
  readonly tone?: 'normal' | 'danger';
  /** Extra fields inside the form (selects, inputs). */
  readonly fields?: HtmlChild;
  /** A test hook: `data-action` on the button. */
  readonly name: string;
}

/** A form that POSTs an action; nothing when the dashboard cannot write. */
export function actionForm(ctx: PageContext, spec: ActionFormSpec): Html {
  if (!ctx.canWrite) return html``;
  return html`<form class="action" method="post" action="${href(ctx, spec.path)}"${
    spec.confirm === undefined ? '' : html` data-confirm="${spec.confirm}"`
  }><input type="hidden" name="_csrf" value="${ctx.csrf}"><input type="hidden" name="return" value="${ctx.self}">${
    spec.fields
  }<button type="submit" class="${spec.tone === 'danger' ? 'danger' : ''}" data-action="${spec.name}">${spec.label}</button></form>`;
}
