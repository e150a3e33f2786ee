import { dashboardError } from '../errors.js';
import type { ResolvedOptions } from './dashboard-options.js';
import type { Digest } from './digest.js';

/** The cookie a `?token=` visit sets; HttpOnly, SameSite=Strict, scoped to the base path. */
export const SESSION_COOKIE = 'x_jobs_dashboard';

/** The header (or form field `_csrf`) a cookie- or hook-authenticated mutation must carry. */
export const CSRF_HEADER = 'x-csrf-token';

/** Who a request was let in as. */
export interface Access {
  /** How it authenticated: a bearer header, the session cookie, the hook, or open (no auth configured). */
  readonly via: 'bearer' | 'cookie' | 'hook' | 'open';
  /** What the CSRF token of its pages is bound to (the session cookie, or nothing). */
  readonly binding: string;
}

/** A cookie's value from the `Cookie` header, or null. */
export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function bearer(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1] ?? null;
}

/**
 * Lets a request in or refuses it with `X_DASHBOARD_UNAUTHORIZED`. With a token configured, a
 * matching bearer header or session cookie lets it in; with an `authorize` hook, the hook's true
 * does; with both, either does; with neither, every request is let in (`open`: reads only, see
 * {@link canWrite}).
 */
export async function authenticate(
  request: Request,
  options: ResolvedOptions,
  digest: Digest,
  context: { readonly access: 'read' | 'write'; readonly action: string | null },
): Promise<Access> {
  if (options.token === undefined && options.authorize === undefined) return { via: 'open', binding: '' };
  if (options.token !== undefined) {
    const header = bearer(request);
    if (header !== null && (await digest.equal(header, options.token))) return { via: 'bearer', binding: '' };
    const cookie = readCookie(request, SESSION_COOKIE);
    if (cookie !== null && (await digest.equal(cookie, options.token)))
      return { via: 'cookie', binding: cookie };
  }
  if (options.authorize !== undefined && (await options.authorize(request, context))) {
    return { via: 'hook', binding: '' };
  }
  throw dashboardError(
    'X_DASHBOARD_UNAUTHORIZED',
    options.token === undefined
      ? 'This dashboard refused the request (its authorize hook said no).'
      : 'This dashboard needs its token: open the URL x-jobs printed (…?token=…), or send Authorization: Bearer <token>.',
  );
}

/** Null when mutations are allowed; otherwise the sentence the banner shows. */
export function writeNote(options: ResolvedOptions): string | null {
  if (options.readOnly) return 'Read-only: actions are disabled.';
  if (options.token === undefined && options.authorize === undefined) {
    return 'Read-only: actions need a token or an authorize hook.';
  }
  return null;
}

/** The CSRF token of the pages served to `access`. */
export function csrfToken(digest: Digest, access: Access): Promise<string> {
  return digest.sign(`csrf:${access.binding}`);
}

/**
 * Refuses a cross-site mutation with `X_DASHBOARD_CROSS_SITE`. A bearer header cannot be sent
 * by another site, so it passes. Anything else (a cookie, the hook's own session) must come
 * from this origin (the `Origin` header, or `Sec-Fetch-Site` when there is none) and carry the
 * page's CSRF token in the `_csrf` field or the `x-csrf-token` header.
 */
export async function checkSameSite(
  request: Request,
  options: ResolvedOptions,
  digest: Digest,
  access: Access,
  submitted: string | null,
): Promise<void> {
  if (access.via === 'bearer') return;
  const origin = request.headers.get('origin');
  const own = new URL(request.url).origin;
  if (origin !== null) {
    if (origin !== own && !(options.allowedOrigins ?? []).includes(origin)) {
      throw dashboardError('X_DASHBOARD_CROSS_SITE', `A mutation from ${origin} is refused.`, { origin });
    }
  } else {
    const site = request.headers.get('sec-fetch-site');
    if (site !== null && site !== 'same-origin' && site !== 'none') {
      throw dashboardError('X_DASHBOARD_CROSS_SITE', `A ${site} mutation is refused.`, { site });
    }
  }
  const token = submitted ?? request.headers.get(CSRF_HEADER);
  if (token === null || !(await digest.equal(token, await csrfToken(digest, access)))) {
    throw dashboardError(
      'X_DASHBOARD_CROSS_SITE',
      'The CSRF token is missing or stale: reload the page and try again.',
    );
  }
}
