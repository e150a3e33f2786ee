import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import type { ResolvedJobDefinition } from '../job/definition-of.js';
import type { Settled } from '../job/settled.js';
import type { AttemptScope } from './attempt-scope.js';
import { DEFAULT_SETTLED_TIMEOUT_MS } from './execution-settings.js';

/**
 * Calls the definition's `onSettled` once, after the settle landed, with the fields of this ending.
 * It may run for `settledTimeoutMs`; a throw or an overrun is logged `jobs.settled.failed`, never
 * changes the row.
 */
export async function callSettled(
  scope: AttemptScope,
  definition: ResolvedJobDefinition,
  fields: object,
): Promise<void> {
  const hook = definition.onSettled;
  if (hook === undefined) return;
  const job = scope.job;
  const settled = {
    jobId: job.id,
    runId: job.runId,
    name: job.name,
    tenantId: job.tenantId,
    attempt: job.attempt,
    ...fields,
  } as Settled<unknown, unknown>;
  const limit = scope.settings.settledTimeoutMs ?? DEFAULT_SETTLED_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(() => hook(settled)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(coreError('X_JOB_TIMEOUT', `onSettled of '${job.name}' ran past ${limit} ms.`)),
          limit,
        );
      }),
    ]);
  } catch (error) {
    scope.settings.logger.log('error', 'jobs.settled.failed', {
      ...scope.logFields(),
      code: errorCode(error) ?? 'ERROR',
    });
  } finally {
    clearTimeout(timer);
  }
}
