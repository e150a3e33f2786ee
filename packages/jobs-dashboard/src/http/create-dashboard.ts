import { errorCode, isJobsError } from '@x/jobs-core';
import { DASHBOARD_ERROR_STATUS, type DashboardErrorCode, dashboardError } from '../errors.js';
import { errorPage } from '../html/error-page.js';
import type { PageContext } from '../html/page-context.js';
import { authenticate, checkSameSite, csrfToken, SESSION_COOKIE, writeNote } from './access.js';
import { type DashboardOptions, type ResolvedOptions, resolveOptions } from './dashboard-options.js';
import { Digest, randomSecret } from './digest.js';
import { readFormFields } from './form-fields.js';
import { assetRoute, readRoute } from './read-routes.js';
import { htmlResponse, jsonResponse, redirectResponse, wantsJson } from './responses.js';
import type { RouteContext } from './route-context.js';
import { actionName, writeRoute } from './write-routes.js';

/** The dashboard as a web-standard handler: mount it in Hono, Next.js route handlers, Bun, Deno as is. */
export interface DashboardHandler {
  (request: Request): Promise<Response>;
  /** The base path it answers under, no trailing slash (`''` at the root). */
  readonly basePath: string;
  /** True when `pathname` is under the base path (what the middleware checks before calling `next`). */
  handles(pathname: string): boolean;
}

function statusOf(error: unknown): number {
  const code = errorCode(error);
  if (code !== undefined && code in DASHBOARD_ERROR_STATUS)
    return DASHBOARD_ERROR_STATUS[code as DashboardErrorCode];
  if (code === 'X_DRIVER_UNAVAILABLE') return 503;
  return 500;
}

function pathBelow(options: ResolvedOptions, pathname: string): string | null {
  if (options.base === '') return pathname;
  if (pathname === options.base) return '/';
  return pathname.startsWith(`${options.base}/`) ? pathname.slice(options.base.length) : null;
}

/**
 * Builds the dashboard: pages, their JSON twins under `/api/`, and POST mutations, all read and
 * done through `driver.introspect`, `driver.stats()` and `driver.schedules`, so one UI serves
 * every driver. Mutations need a token or an `authorize` hook, come only as POST, and are
 * refused cross-site; everything shown is escaped text; inputs are redacted as `x-jobs show`
 * redacts them. Bad options throw `X_DASHBOARD_OPTIONS_INVALID` here; request errors are
 * answered with their code (JSON `{ error: { code, message } }`, or an error page).
 */
export function createDashboard(dashboardOptions: DashboardOptions): DashboardHandler {
  const options = resolveOptions(dashboardOptions);
  const digest = new Digest(options.secret ?? randomSecret());
  const note = writeNote(options);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = pathBelow(options, url.pathname);
    const json = path !== null && wantsJson(request, path);
    let page: PageContext = {
      base: options.base,
      title: options.title,
      csrf: '',
      canWrite: false,
      writeNote: note,
      now: options.driver.now(),
      pollMs: options.pollIntervalMs,
      self: '/',
    };
    try {
      if (path === null) throw dashboardError('X_DASHBOARD_NOT_FOUND', `Nothing at ${url.pathname}.`);
      page = { ...page, self: `${path}${url.search}` };
      const asset = request.method === 'GET' || request.method === 'HEAD' ? assetRoute(path) : null;
      if (asset !== null) return asset;
      const token = url.searchParams.get('token');
      if (request.method === 'GET' && token !== null && options.token !== undefined)
        return await takeToken(url, token);
      const write = request.method === 'POST';
      const action = write ? actionName(path) : null;
      if (!write && request.method !== 'GET' && request.method !== 'HEAD') {
        throw dashboardError(
          'X_DASHBOARD_METHOD_NOT_ALLOWED',
          `${request.method} is not served; mutations are POST.`,
        );
      }
      if (write && action === null) {
        throw dashboardError('X_DASHBOARD_METHOD_NOT_ALLOWED', `Nothing to POST at ${path}.`);
      }
      const access = await authenticate(request, options, digest, {
        access: write ? 'write' : 'read',
        action,
      });
      page = { ...page, csrf: await csrfToken(digest, access), canWrite: note === null };
      const context: RouteContext = { request, url, path, options, driver: options.driver, page, json };
      if (!write) return await readRoute(context);
      if (note !== null) throw dashboardError('X_DASHBOARD_WRITE_DISABLED', note, { action });
      const fields = await readFormFields(request);
      await checkSameSite(request, options, digest, access, fields('_csrf'));
      return await writeRoute(context, action ?? '', fields);
    } catch (error) {
      return failure(error, page, json);
    }
  }

  async function takeToken(url: URL, token: string): Promise<Response> {
    if (!(await digest.equal(token, options.token ?? ''))) {
      throw dashboardError('X_DASHBOARD_UNAUTHORIZED', 'The token in the URL is not this dashboard’s.');
    }
    url.searchParams.delete('token');
    const secure = url.protocol === 'https:' ? '; Secure' : '';
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=${options.base === '' ? '/' : options.base}; HttpOnly; SameSite=Strict${secure}`;
    return redirectResponse(`${url.pathname}${url.search}`, { 'set-cookie': cookie });
  }

  const handler = Object.assign(handle, {
    basePath: options.base,
    handles: (pathname: string) => pathBelow(options, pathname) !== null,
  });
  return handler;
}

function failure(error: unknown, page: PageContext, json: boolean): Response {
  const status = statusOf(error);
  const code = errorCode(error) ?? 'ERROR';
  // Only coded errors say what went wrong; anything else may carry internals, so it stays generic.
  const message = isJobsError(error) ? error.message : 'The dashboard failed to answer this request.';
  if (json) return jsonResponse({ error: { code, message } }, status);
  return htmlResponse(errorPage(page, status, code, message), status);
}
