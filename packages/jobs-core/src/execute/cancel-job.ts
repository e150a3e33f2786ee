import type { JobDriver } from '../driver/job-driver.js';
import { coreError } from '../errors/core-error.js';

/**
 * Cancels a job: a queued row is cancelled at once; a running one is marked cancelled and its
 * worker stops at the next heartbeat (its settles are fenced, so it cannot un-cancel the row).
 * `X_JOB_NOT_FOUND` for an unknown id, `X_JOB_NOT_CANCELLABLE` for a finished job or a driver
 * without introspection.
 */
export async function cancelJob(driver: JobDriver, id: string, reason?: string): Promise<void> {
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
  if (await introspect.cancel(id, reason)) return;
  const row = await introspect.get(id);
  if (row === null) throw coreError('X_JOB_NOT_FOUND', `No job has id ${id}.`, { id });
  throw coreError(
    'X_JOB_NOT_CANCELLABLE',
    `Job ${id} is already ${row.state}; only live jobs can be cancelled.`,
    {
      id,
      state: row.state,
    },
  );
}
