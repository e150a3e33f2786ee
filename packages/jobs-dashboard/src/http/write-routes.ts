import type { JsonValue } from '@x/jobs-core';
import { dashboardError } from '../errors.js';
import { applyJobAction, type JobAction, setQueuePaused } from '../operate/job-action.js';
import { requireIntrospection } from '../read/require-introspection.js';
import type { FormFields } from './form-fields.js';
import { jsonResponse, redirectResponse } from './responses.js';
import { type RouteContext, segments } from './route-context.js';

const JOB_ACTIONS = ['retry', 'cancel', 'remove', 'promote', 'resolve-step'] as const;

/** The mutation a POST path names (`/jobs/:id/retry`, `/queues/:q/pause`, the same under `/api/`), or null. */
export function actionName(path: string): string | null {
  const parts = segments(path);
  const [kind, , action, extra] = parts[0] === 'api' ? parts.slice(1) : parts;
  if (extra !== undefined || action === undefined) return null;
  if (kind === 'jobs' && (JOB_ACTIONS as readonly string[]).includes(action)) return action;
  if (kind === 'queues' && (action === 'pause' || action === 'resume')) return action;
  return null;
}

function bad(field: string, why: string): Error {
  return dashboardError('X_DASHBOARD_BAD_REQUEST', `${field}: ${why}.`, { field });
}

/** Reads a job action's own fields (`fromStep`, `reason`, `step`, `ran`, `output`). */
export function toJobAction(action: string, fields: FormFields): JobAction {
  const text = (name: string): string | undefined => {
    const value = fields(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  switch (action) {
    case 'retry': {
      const fromStep = text('fromStep');
      return fromStep === undefined ? { kind: 'retry' } : { kind: 'retry', fromStep };
    }
    case 'cancel': {
      const reason = text('reason');
      return reason === undefined ? { kind: 'cancel' } : { kind: 'cancel', reason };
    }
    case 'remove':
    case 'promote':
      return { kind: action };
    case 'resolve-step': {
      const step = text('step');
      if (step === undefined) throw bad('step', 'the name of the step to resolve');
      const ran = text('ran');
      if (ran === 'false') return { kind: 'resolve-step', step, ran: false };
      if (ran !== 'true') throw bad('ran', "'true' (it ran, with output) or 'false' (it did not)");
      let output: JsonValue;
      try {
        output = JSON.parse(text('output') ?? 'null') as JsonValue;
      } catch {
        throw bad('output', 'the step output as JSON (null, "text", {"id":1})');
      }
      return { kind: 'resolve-step', step, ran: true, output };
    }
  }
  throw bad('action', `unknown action '${action}'`);
}

/** Where a form POST returns to: its `return` field when it is a path of this dashboard, else the queues page. */
function returnTo(context: RouteContext, fields: FormFields, fallback: string): string {
  const wanted = fields('return');
  const safe = wanted !== null && /^\/(?![/\\])[^\s]*$/.test(wanted) ? wanted : fallback;
  return `${context.options.base}${safe}`;
}

/** Applies a POSTed mutation and answers JSON, or a 303 back to the page for a form. */
export async function writeRoute(
  context: RouteContext,
  action: string,
  fields: FormFields,
): Promise<Response> {
  const parts = segments(context.path);
  const [kind, target] = parts[0] === 'api' ? parts.slice(1) : parts;
  const introspect = requireIntrospection(context.driver);
  if (target === undefined) throw bad('path', 'names no job or queue');
  if (kind === 'queues') {
    await setQueuePaused(introspect, target, action === 'pause');
    return context.json
      ? jsonResponse({ queue: target, paused: action === 'pause' })
      : redirectResponse(returnTo(context, fields, '/'));
  }
  const result = await applyJobAction(context.driver, target, toJobAction(action, fields));
  if (context.json) return jsonResponse(result);
  const own = `/jobs/${encodeURIComponent(target)}`;
  if (action !== 'remove') return redirectResponse(returnTo(context, fields, own));
  // The removed job's page is gone: land on the list instead.
  const back = fields('return');
  return redirectResponse(
    back?.startsWith(own) ? `${context.options.base}/jobs` : returnTo(context, fields, '/jobs'),
  );
}
