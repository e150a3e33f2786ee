import { randomUUID } from 'node:crypto';
import type { JobDriver, JsonValue } from '@x/jobs-core';
import type { AttemptFailure, EnqueueRequest } from '@x/jobs-core/driver';

/** Writes a row as core would (unique ids, the rest defaulted); answers its id. */
export async function enqueueRow(
  driver: JobDriver,
  fields: Partial<EnqueueRequest> & Pick<EnqueueRequest, 'name' | 'queue'>,
): Promise<string> {
  const result = await driver.enqueue({
    id: randomUUID(),
    runId: randomUUID(),
    payload: {} as JsonValue,
    tenantId: null,
    idempotencyKey: randomUUID(),
    priority: 0,
    maxAttempts: 1,
    ...fields,
  });
  return result.id;
}

/** Claims the one due row of `queue`, starts its attempt and dead-letters it with `error`. */
export async function killRow(
  driver: JobDriver,
  queue: string,
  error = { code: 'X_BOOM', message: 'boom' },
  failure?: AttemptFailure,
) {
  const [job] = await driver.claim({
    queues: [queue],
    limit: 1,
    workerId: 'test',
    visibilityTimeoutMs: 60_000,
  });
  if (job === undefined) throw new Error(`nothing to claim on ${queue}`);
  if (!(await driver.start(job.id, job.claim, 60_000))) throw new Error(`could not start ${job.id}`);
  await driver.nack(job.id, job.claim, {
    kind: 'dead',
    error,
    stopReason: 'attempts-exhausted',
    ...(failure === undefined ? {} : { failure }),
  });
  return job;
}
