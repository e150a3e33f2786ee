import { type Html, html } from './escape.js';
import { layout } from './layout.js';
import type { PageContext } from './page-context.js';

/** An error as a page: its code and message (escaped like everything else). */
export function errorPage(ctx: PageContext, status: number, code: string, message: string): Html {
  return layout(ctx, {
    title: status === 404 ? 'Not found' : 'Error',
    nav: 'none',
    body: html`<p class="error-box" data-error-code="${code}"><code>${code}</code> ${message}</p>`,
  });
}
