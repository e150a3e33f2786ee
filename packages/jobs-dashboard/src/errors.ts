import { JobsError } from '@x/jobs-core';

/**
 * Every error code @x/jobs-dashboard throws or answers, with its one-line meaning and the HTTP
 * status the handler answers it with. Codes are the contract; messages may change.
 */
export const DASHBOARD_ERROR_CODES = {
  X_DASHBOARD_OPTIONS_INVALID: 'createDashboard was given an invalid option (basePath, token, pageSize, …).',
  X_DASHBOARD_INTROSPECTION_UNSUPPORTED:
    'The driver has no introspection, so jobs cannot be listed, shown or operated on.',
  X_DASHBOARD_UNAUTHORIZED: 'The request carries no valid token, or the authorize hook refused it (401).',
  X_DASHBOARD_WRITE_DISABLED:
    'A mutation reached a dashboard that is read-only, or has neither a token nor an authorize hook (403).',
  X_DASHBOARD_CROSS_SITE:
    'A mutation came from another origin, or without the CSRF token of this dashboard (403).',
  X_DASHBOARD_NOT_FOUND: 'No page, API route or job answers at that path (404).',
  X_DASHBOARD_METHOD_NOT_ALLOWED: 'A mutation was not a POST, or a page was POSTed to (405).',
  X_DASHBOARD_BAD_REQUEST:
    'A filter or form field is malformed: an unknown state, a bad limit, invalid JSON (400).',
  X_DASHBOARD_ACTION_REFUSED:
    "The job's state does not allow the action: retry of a live row, remove of a running one, … (409).",
  X_DASHBOARD_JOB_CHANGED: 'The job changed state while the action ran (a worker or another operator) (409).',
} as const;

/** A code @x/jobs-dashboard can throw or answer. */
export type DashboardErrorCode = keyof typeof DASHBOARD_ERROR_CODES;

/** The HTTP status each code is answered with. */
export const DASHBOARD_ERROR_STATUS: Readonly<Record<DashboardErrorCode, number>> = {
  X_DASHBOARD_OPTIONS_INVALID: 500,
  X_DASHBOARD_INTROSPECTION_UNSUPPORTED: 501,
  X_DASHBOARD_UNAUTHORIZED: 401,
  X_DASHBOARD_WRITE_DISABLED: 403,
  X_DASHBOARD_CROSS_SITE: 403,
  X_DASHBOARD_NOT_FOUND: 404,
  X_DASHBOARD_METHOD_NOT_ALLOWED: 405,
  X_DASHBOARD_BAD_REQUEST: 400,
  X_DASHBOARD_ACTION_REFUSED: 409,
  X_DASHBOARD_JOB_CHANGED: 409,
};

/** Builds a dashboard error: `throw dashboardError('X_DASHBOARD_BAD_REQUEST', '…', { field: 'state' })`. */
export function dashboardError(
  code: DashboardErrorCode,
  message: string,
  meta?: Record<string, unknown>,
  cause?: unknown,
): JobsError<DashboardErrorCode> {
  return new JobsError(code, message, {
    ...(meta === undefined ? {} : { meta }),
    ...(cause === undefined ? {} : { cause }),
  });
}
