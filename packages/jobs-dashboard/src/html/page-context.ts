/** What every page is rendered with. */
export interface PageContext {
  /** The base path, no trailing slash (`''` at the root, `'/admin/jobs'` when mounted there). */
  readonly base: string;
  /** The title shown in the header. */
  readonly title: string;
  /** The CSRF token every form carries. */
  readonly csrf: string;
  /** True when mutations are allowed; false shows no action buttons. */
  readonly canWrite: boolean;
  /** Why mutations are off (read-only mode, no token or hook), shown in a banner; null when on. */
  readonly writeNote: string | null;
  /** Epoch ms the page was rendered, for relative times. */
  readonly now: number;
  /** How often the page's script polls for changes, in ms. */
  readonly pollMs: number;
  /** The page's own path and query (below the base), where forms return to. */
  readonly self: string;
}

/** A path below the base with an optional query: `href(ctx, '/jobs', { state: 'dead' })`. */
export function href(
  ctx: Pick<PageContext, 'base'>,
  path: string,
  query: Readonly<Record<string, string | number | undefined>> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${ctx.base}${path}${search === '' ? '' : `?${search}`}`;
}

/** The path of job `id`'s page, or an action under it. */
export function jobPath(id: string, action?: string): string {
  return `/jobs/${encodeURIComponent(id)}${action === undefined ? '' : `/${action}`}`;
}

/** The path of an action on queue `queue`. */
export function queuePath(queue: string, action: 'pause' | 'resume'): string {
  return `/queues/${encodeURIComponent(queue)}/${action}`;
}
