import {
  isLiveState,
  type JobDetail,
  type JobDriver,
  type JobIntrospection,
  type JsonValue,
  tryCancelJob,
} from '@x/jobs-core';
import { dashboardError } from '../errors.js';
import { requireIntrospection } from '../read/require-introspection.js';

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

function apply(
  driver: JobDriver,
  introspect: JobIntrospection,
  id: string,
  action: JobAction,
): Promise<boolean> {
  switch (action.kind) {
    case 'retry':
      return introspect.retry(id, action.fromStep === undefined ? undefined : { fromStep: action.fromStep });
    case 'cancel':
      // Core's cancel: the cascade to children and the wake of a waiting parent; false on a race.
      return tryCancelJob(driver, id, action.reason);
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
 * Applies `action` to job `id` on `driver`: `X_DASHBOARD_INTROSPECTION_UNSUPPORTED` for a driver
 * without introspection, `X_DASHBOARD_NOT_FOUND` when absent, a refusal (see {@link refusal}) when
 * its state does not allow it, `X_DASHBOARD_JOB_CHANGED` when the driver answers false because the
 * row moved meanwhile. A cancel goes through core's `cancelJob`: it cascades to the children a
 * parent's `step.invoke` steps wait on (unless a step passed `cancelWithParent: false`) and wakes a
 * parent waiting on the cancelled job.
 */
export async function applyJobAction(
  driver: JobDriver,
  id: string,
  action: JobAction,
): Promise<JobActionResult> {
  const introspect = requireIntrospection(driver);
  const job = await introspect.get(id);
  if (job === null) throw jobNotFound(id);
  const refused = refusal(job, action);
  if (refused !== null) throw refused;
  if (!(await apply(driver, introspect, id, action))) {
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
