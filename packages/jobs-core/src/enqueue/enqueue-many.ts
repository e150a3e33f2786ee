import { jobsFacade } from '../ambient/facade.js';
import type { EnqueueRequest, EnqueueResult } from '../driver/enqueue.js';
import { coreError } from '../errors/core-error.js';
import { isJobsError, JobsError } from '../errors/jobs-error.js';
import type { EnqueueManyOptions } from '../job/enqueue-options.js';
import type { JobHandle } from '../job/job-handle.js';
import { prepareEnqueue } from './prepare-enqueue.js';

/** The most inputs one `enqueueMany` call accepts. */
export const ENQUEUE_MANY_MAX = 10_000;

/** Inputs sent to the facade per round trip. */
export const ENQUEUE_MANY_CHUNK = 1_000;

/**
 * `handle.enqueueMany`: refuses more than {@link ENQUEUE_MANY_MAX} inputs
 * (`X_JOB_ENQUEUE_BATCH_TOO_LARGE`) and a `runId` or `onConflict: 'error'`
 * (`X_JOB_ENQUEUE_OPTIONS_INVALID`); prepares every request first (an invalid input is
 * `X_JOB_INPUT_INVALID` with `meta.index`, and nothing is written); then sends chunks of
 * {@link ENQUEUE_MANY_CHUNK} through `jobsFacade().enqueueMany`, one after another, answering in
 * input order. Chunks are separate writes: a failure in a later chunk leaves earlier ones queued.
 */
export async function enqueueMany<EnqueueInput>(
  handle: JobHandle<unknown, unknown, EnqueueInput>,
  inputs: readonly EnqueueInput[],
  options: EnqueueManyOptions = {},
): Promise<readonly EnqueueResult[]> {
  if (!Array.isArray(inputs)) {
    throw coreError('X_JOB_ENQUEUE_OPTIONS_INVALID', 'enqueueMany: inputs must be an array.', {
      field: 'inputs',
    });
  }
  if (inputs.length > ENQUEUE_MANY_MAX) {
    throw coreError(
      'X_JOB_ENQUEUE_BATCH_TOO_LARGE',
      `enqueueMany: ${inputs.length} inputs; at most ${ENQUEUE_MANY_MAX} per call. Split the batch.`,
      { count: inputs.length, max: ENQUEUE_MANY_MAX },
    );
  }
  const loose = options as { runId?: unknown; onConflict?: unknown };
  if (loose.runId !== undefined || loose.onConflict === 'error') {
    throw coreError(
      'X_JOB_ENQUEUE_OPTIONS_INVALID',
      "enqueueMany: runId and onConflict: 'error' apply to one row; enqueue those one at a time.",
      { field: loose.runId !== undefined ? 'runId' : 'onConflict' },
    );
  }
  const requests = inputs.map((input, index) => prepareAt(handle, input, options, index));
  const results: EnqueueResult[] = [];
  for (let start = 0; start < requests.length; start += ENQUEUE_MANY_CHUNK) {
    results.push(...(await jobsFacade().enqueueMany(requests.slice(start, start + ENQUEUE_MANY_CHUNK))));
  }
  return results;
}

function prepareAt<EnqueueInput>(
  handle: JobHandle<unknown, unknown, EnqueueInput>,
  input: EnqueueInput,
  options: EnqueueManyOptions,
  index: number,
): EnqueueRequest {
  try {
    return prepareEnqueue(handle, input, options);
  } catch (error) {
    if (!isJobsError(error) || error.code === 'X_JOB_ENQUEUE_OPTIONS_INVALID') throw error;
    throw new JobsError(error.code, `inputs[${index}]: ${error.message}`, {
      meta: { ...error.meta, index },
      cause: error,
    });
  }
}
