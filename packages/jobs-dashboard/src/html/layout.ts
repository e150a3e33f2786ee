import { type Html, type HtmlChild, html } from './escape.js';
import { href, type PageContext } from './page-context.js';

/** The pages of the navigation bar. */
export type NavPage = 'queues' | 'jobs' | 'dead' | 'workers' | 'tasks' | 'none';

/** How the page's script keeps it current: update the queue table in place, or reload on change. */
export interface LiveSpec {
  /** The JSON endpoint to poll, below the base (`/api/queues`). */
  readonly src: string;
  readonly mode: 'queues' | 'refresh';
}

/** A whole page: header, navigation, the write-mode banner, `body`; stylesheet and script from `assets/`. */
export function layout(
  ctx: PageContext,
  page: { readonly title: string; readonly nav: NavPage; readonly body: HtmlChild; readonly live?: LiveSpec },
): Html {
  const link = (target: NavPage, path: string, label: string, query: Record<string, string> = {}): Html =>
    html`<a href="${href(ctx, path, query)}"${target === page.nav ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${page.title} · ${ctx.title}</title>
<link rel="stylesheet" href="${href(ctx, '/assets/dashboard.css')}">
<script src="${href(ctx, '/assets/dashboard.js')}" defer></script>
</head>
<body data-poll-ms="${ctx.pollMs}"${
    page.live === undefined
      ? ''
      : html` data-live-src="${href(ctx, page.live.src)}" data-live-mode="${page.live.mode}"`
  }>
<header><strong class="brand">${ctx.title}</strong><nav>${[
    link('queues', '/', 'Queues'),
    link('jobs', '/jobs', 'Jobs'),
    link('dead', '/dead', 'Dead letters'),
    link('workers', '/workers', 'Workers'),
    link('tasks', '/tasks', 'Cron tasks'),
  ]}</nav><span class="live" data-live-status>${page.live === undefined ? '' : 'live'}</span></header>
${ctx.writeNote === null ? '' : html`<p class="banner" data-read-only>${ctx.writeNote}</p>`}
<main>
<h1>${page.title}</h1>
${page.body}
</main>
</body>
</html>
`;
}
