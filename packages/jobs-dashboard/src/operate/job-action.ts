import { isLiveState, type JobDetail, type JobIntrospection, type JsonValue } from '@x/jobs-core';
import { dashboardError } from '../errors.js';

/** An operator's action on one job. */
export type JobAction =
  | { readonly kind: 'retry'; readonly fromStep?: string }
  | { readonly kind: 'cancel'; readonly reason?: string }
  | { readonly kind: 'remove' }
  | { readonly kind: 'promote' }
  | { readonly kind: 'resolve-step'; readonly step: string; readonly ran: true; readonly output: JsonValue }
  | { readonly kind: 'resolve-step'; readonly step: string; readonly ran: false };

/** The name of a job action. */
export type JobActionKind = JobAction['kind'];

/** What an applied action changed. */
export interface JobActionResult {
  readonly id: string;
  readonly action: JobActionKind;
  /** The state the row was in before the action. */
  readonly previousState: string;
}

/**
 * Null when `job`'s state allows `action`, else why not as `X_DASHBOARD_ACTION_REFUSED`
 * (`meta.action`, `meta.state`): retry wants a terminal row (and a recorded `fromStep`), cancel
 * a live one, remove one not running, promote a delayed or suspended one, resolve-step a step
 * left `started`. The same rules as the `x-jobs` verbs of those names.
 */
export function refusal(job: JobDetail, action: JobAction): Error | null {
  const refuse = (why: string): Error =>
    dashboardError('X_DASHBOARD_ACTION_REFUSED', `${action.kind}: job '${job.id}' ${why}.`, {
      action: action.kind,
      state: job.state,
      id: job.id,
    });
  switch (action.kind) {
    case 'retry':
      if (isLiveState(job.state)) return refuse(`is ${job.state}; only dead, cancelled or done rows retry`);
      if (action.fromStep !== undefined && !job.steps.some((step) => step.name === action.fromStep)) {
        return refuse(`has no recorded step '${action.fromStep}'`);
      }
      return null;
    case 'cancel':
      return isLiveState(job.state) ? null : refuse(`is ${job.state}; only live rows can be cancelled`);
    case 'remove':
      return job.state === 'running' ? refuse('is running; cancel it first') : null;
    case 'promote':
      return job.state === 'delayed' || job.state === 'suspended'
        ? null
        : refuse(`is ${job.state}; only delayed or suspended rows can be promoted`);
    case 'resolve-step': {
      const step = job.steps.find((candidate) => candidate.name === action.step);
      return step?.status === 'started' ? null : refuse(`has no step '${action.step}' left started`);
    }
  }
}

function apply(introspect: JobIntrospection, id: string, action: JobAction): Promise<boolean> {
  switch (action.kind) {
    case 'retry':
      return introspect.retry(id, action.fromStep === undefined ? undefined : { fromStep: action.fromStep });
    case 'cancel':
      return introspect.cancel(id, action.reason);
    case 'remove':
      return introspect.remove(id);
    case 'promote':
      return introspect.promote(id);
    case 'resolve-step':
      return introspect.resolveStep(
        id,
        action.step,
        action.ran ? { ran: true, output: action.output } : { ran: false },
      );
  }
}

/**
 * Applies `action` to job `id`: `X_DASHBOARD_NOT_FOUND` when absent, a refusal (see
 * {@link refusal}) when its state does not allow it, `X_DASHBOARD_JOB_CHANGED` when the driver
 * answers false because the row moved meanwhile.
 */
export async function applyJobAction(
  introspect: JobIntrospection,
  id: string,
  action: JobAction,
): Promise<JobActionResult> {
  const job = await introspect.get(id);
  if (job === null) throw jobNotFound(id);
  const refused = refusal(job, action);
  if (refused !== null) throw refused;
  if (!(await apply(introspect, id, action))) {
    const now = await introspect.get(id);
    throw (
      (now === null ? null : refusal(now, action)) ??
      dashboardError('X_DASHBOARD_JOB_CHANGED', `${action.kind}: job '${id}' changed state meanwhile.`, {
        id,
        action: action.kind,
      })
    );
  }
  return { id, action: action.kind, previousState: job.state };
}

/** Pauses (claims skip it) or resumes a queue. Idempotent. */
export async function setQueuePaused(
  introspect: JobIntrospection,
  queue: string,
  paused: boolean,
): Promise<void> {
  if (queue.trim() === '')
    throw dashboardError('X_DASHBOARD_BAD_REQUEST', 'The queue name is empty.', { field: 'queue' });
  await (paused ? introspect.pause(queue) : introspect.resume(queue));
}

/** The not-found error for a job id (`X_DASHBOARD_NOT_FOUND`, `meta.id`). */
export function jobNotFound(id: string): Error {
  return dashboardError('X_DASHBOARD_NOT_FOUND', `No job has the id '${id}'.`, { id });
}
