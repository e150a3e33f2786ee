import { CLIENT_SCRIPT } from '../client/client-script.js';
import { STYLES } from '../client/styles.js';
import { dashboardError } from '../errors.js';
import { jobPage } from '../html/job-page.js';
import { jobsPage } from '../html/jobs-page.js';
import { queuesPage } from '../html/queues-page.js';
import { tasksPage } from '../html/tasks-page.js';
import { workersPage } from '../html/workers-page.js';
import { jobNotFound } from '../operate/job-action.js';
import { readCronTasks } from '../read/cron-task-view.js';
import { readJobDetail } from '../read/job-detail-view.js';
import { parseJobFilter } from '../read/job-filter.js';
import { listJobs } from '../read/list-jobs.js';
import { readQueues } from '../read/queue-view.js';
import { requireIntrospection } from '../read/require-introspection.js';
import { readWorkers } from '../read/worker-view.js';
import { assetResponse, htmlResponse, jsonResponse } from './responses.js';
import { type RouteContext, segments } from './route-context.js';

/** The static assets, served to anyone (they hold no data). Null when `path` is not one. */
export function assetRoute(path: string): Response | null {
  if (path === '/assets/dashboard.js') return assetResponse(CLIENT_SCRIPT, 'text/javascript; charset=utf-8');
  if (path === '/assets/dashboard.css') return assetResponse(STYLES, 'text/css; charset=utf-8');
  if (path === '/favicon.ico') return new Response(null, { status: 204 });
  return null;
}

/**
 * Every GET: the pages (`/`, `/jobs`, `/dead`, `/jobs/:id`, `/workers`, `/tasks`) and their JSON
 * twins under `/api/`. `X_DASHBOARD_NOT_FOUND` for anything else or an unknown job id.
 */
export async function readRoute(context: RouteContext): Promise<Response> {
  const parts = segments(context.path);
  const api = parts[0] === 'api';
  const [page, id, extra] = api ? parts.slice(1) : parts;
  const { driver, options, url } = context;
  const now = driver.now();
  if (extra !== undefined) throw notFound(context.path);
  switch (page) {
    case undefined:
    case 'queues': {
      if (id !== undefined) break;
      const data = await readQueues(driver);
      return api ? jsonResponse(data) : htmlResponse(queuesPage(context.page, data));
    }
    case 'jobs':
    case 'dead': {
      const introspect = requireIntrospection(driver);
      if (id !== undefined) {
        if (page === 'dead') break;
        const job = await readJobDetail(introspect, id, options.redactKeys ?? []);
        if (job === null) throw jobNotFound(id);
        return api ? jsonResponse({ job }) : htmlResponse(jobPage(context.page, job));
      }
      const parsed = parseJobFilter((name) => url.searchParams.get(name));
      const filter = page === 'dead' ? { ...parsed, state: 'dead' as const } : parsed;
      const data = await listJobs(introspect, filter);
      return api ? jsonResponse(data) : htmlResponse(jobsPage(context.page, filter, data, page === 'dead'));
    }
    case 'workers': {
      if (id !== undefined) break;
      const data = await readWorkers(requireIntrospection(driver), now);
      return api ? jsonResponse(data) : htmlResponse(workersPage(context.page, data));
    }
    case 'tasks': {
      if (id !== undefined) break;
      const data = await readCronTasks(options.tasks, driver, now);
      return api
        ? jsonResponse(data)
        : htmlResponse(tasksPage(context.page, data, options.tasks !== undefined));
    }
  }
  throw notFound(context.path);
}

function notFound(path: string): Error {
  return dashboardError('X_DASHBOARD_NOT_FOUND', `Nothing at ${path}.`, { path });
}
