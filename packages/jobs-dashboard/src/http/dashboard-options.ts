import type { JobDriver } from '@x/jobs-core';
import { dashboardError } from '../errors.js';
import type { CronTasksSource } from '../read/cron-task-view.js';

/** What an `authorize` hook is asked about. */
export interface AuthorizeContext {
  /** `read` for pages and GET APIs; `write` for every mutation (POST). */
  readonly access: 'read' | 'write';
  /** The mutation's name (`retry`, `cancel`, `remove`, `promote`, `resolve-step`, `pause`, `resume`); null for reads. */
  readonly action: string | null;
}

/** Options of {@link createDashboard}. */
export interface DashboardOptions {
  /** The driver to read and operate through (its `introspect`, `stats()`, `schedules`). */
  readonly driver: JobDriver;
  /** Where the dashboard is mounted, e.g. `/admin/jobs`. (Default: `/`) */
  readonly basePath?: string;
  /**
   * A bearer token: every request must carry it (`Authorization: Bearer <token>`, or the cookie a
   * visit to `?token=<token>` sets). With it, mutations are allowed. (Default: none)
   */
  readonly token?: string;
  /**
   * Your own check, given the request (your session cookie, your SSO header): true lets it
   * through. Reads and writes both ask it. With it, mutations are allowed. (Default: none)
   */
  readonly authorize?: (request: Request, context: AuthorizeContext) => boolean | Promise<boolean>;
  /** Refuse every mutation and show no action buttons. (Default: false) */
  readonly readOnly?: boolean;
  /** Cron tasks to show: the app's task handles and `nextOccurrences` from `@x/jobs-scheduler`. (Default: none) */
  // biome-ignore lint/suspicious/noExplicitAny: any task type the source's own function accepts.
  readonly tasks?: CronTasksSource<any>;
  /** Keys whose values are redacted in inputs, outputs and results, beyond the default list. (Default: none) */
  readonly redactKeys?: readonly string[];
  /** Origins besides the request's own allowed to POST (a proxy's public origin). (Default: none) */
  readonly allowedOrigins?: readonly string[];
  /** The secret CSRF tokens are derived from. (Default: random per handler) */
  readonly secret?: string;
  /** Header title. (Default: `x-jobs`) */
  readonly title?: string;
  /** How often pages poll for changes, in ms, 500–60000. (Default: 2000) */
  readonly pollIntervalMs?: number;
}

/** Options with defaults applied and checked. */
export interface ResolvedOptions
  extends Omit<DashboardOptions, 'basePath' | 'title' | 'pollIntervalMs' | 'readOnly'> {
  /** No trailing slash; `''` at the root. */
  readonly base: string;
  readonly title: string;
  readonly pollIntervalMs: number;
  readonly readOnly: boolean;
}

/** Applies defaults and refuses a bad option with `X_DASHBOARD_OPTIONS_INVALID` (`meta.field`). */
export function resolveOptions(options: DashboardOptions): ResolvedOptions {
  const invalid = (field: string, why: string): Error =>
    dashboardError('X_DASHBOARD_OPTIONS_INVALID', `${field}: ${why}.`, { field });
  if (options.driver === undefined || typeof options.driver.stats !== 'function') {
    throw invalid('driver', 'a JobDriver');
  }
  const basePath = options.basePath ?? '/';
  if (!basePath.startsWith('/') || /[?#\s]/.test(basePath)) {
    throw invalid('basePath', "a path starting with '/', without query or spaces");
  }
  if (options.token !== undefined && (options.token.length < 16 || /[\s;,]/.test(options.token))) {
    throw invalid('token', 'at least 16 characters, without spaces, commas or semicolons');
  }
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  if (!Number.isInteger(pollIntervalMs) || pollIntervalMs < 500 || pollIntervalMs > 60_000) {
    throw invalid('pollIntervalMs', 'a whole number of ms from 500 to 60000');
  }
  return {
    ...options,
    base: basePath.replace(/\/+$/, ''),
    title: options.title ?? 'x-jobs',
    pollIntervalMs,
    readOnly: options.readOnly ?? false,
  };
}
