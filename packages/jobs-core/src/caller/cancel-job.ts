import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';
import { announceChildSettled } from '../steps/child-link.js';
import { invokeStateOf } from '../steps/step-invoke.js';
import { signalSettled } from './settle-signal.js';

/**
 * Cancels a job: a queued row is cancelled at once; a running one is marked cancelled and its
 * worker stops at the next heartbeat (its settles are fenced, so it cannot un-cancel the row).
 * `X_JOB_NOT_FOUND` for an unknown id, `X_JOB_NOT_CANCELLABLE` for a finished job or a driver
 * without introspection.
 *
 * Child jobs: once the row is cancelled, every child its `step.invoke` steps still wait on is
 * cancelled the same way (and theirs in turn), unless the step passed `cancelWithParent: false`;
 * and when the row is itself a child, its parent is woken (it then fails the step with
 * `X_JOB_CHILD_CANCELLED`). Children already finished are left as they are.
 */
export async function cancelJob(driver: JobDriver, id: string, reason?: string): Promise<void> {
  if (await tryCancelJob(driver, id, reason)) return;
  const row = await driver.introspect?.get(id);
  if (row === null || row === undefined) throw coreError('X_JOB_NOT_FOUND', `No job has id ${id}.`, { id });
  throw coreError(
    'X_JOB_NOT_CANCELLABLE',
    `Job ${id} is already ${row.state}; only live jobs can be cancelled.`,
    {
      id,
      state: row.state,
    },
  );
}

/**
 * {@link cancelJob} for a caller that reports a refusal itself (an operator tool that read the
 * row first): the same cancel and the same cascade, but false, rather than an error, when no live
 * row with `id` was there to cancel. `X_JOB_NOT_CANCELLABLE` for a driver without introspection.
 */
export async function tryCancelJob(driver: JobDriver, id: string, reason?: string): Promise<boolean> {
  const introspect = driver.introspect;
  if (introspect === undefined) {
    throw coreError(
      'X_JOB_NOT_CANCELLABLE',
      `Driver '${driver.name}' has no introspection, so it cannot cancel jobs.`,
      {
        id,
      },
    );
  }
  if (!(await introspect.cancel(id, reason))) return false;
  await afterCancel(driver, id);
  return true;
}

/** The cascade of one landed cancel: its waiting children, then its parent's wake. */
async function afterCancel(driver: JobDriver, id: string): Promise<void> {
  signalSettled(id);
  const row = await driver.introspect?.get(id);
  if (row === undefined || row === null) return;
  for (const step of row.steps) {
    const state = step.status === 'started' ? invokeStateOf(step) : undefined;
    if (state === undefined || !state.invoke.cancelWithParent) continue;
    if (await driver.introspect?.cancel(state.invoke.childId, `parent ${id} cancelled`)) {
      await afterCancel(driver, state.invoke.childId);
    }
  }
  await announceChildSettled(driver, id, row.idempotencyKey);
}
