import type { EnqueueRequest } from '@x/jobs-core';
import { occurrenceKey } from './occurrence-key.js';
import type { TaskJob } from './task-entry.js';
import type { TaskSpec } from './task-spec.js';

/** Resolves one `[job, input]` pair into a request without sending it (core's `prepareEnqueue`). */
export type PrepareRequest = (job: TaskJob, input: unknown) => EnqueueRequest | Promise<EnqueueRequest>;

/**
 * The requests a task's occurrences enqueue, occurrence by occurrence and entry by entry: each
 * pair resolved by `prepare` (input validated, key and tenant derived), its key rewritten to the
 * occurrence-scoped one, `onConflict` forced to `'dedupe'`. Sends nothing: a bad input fails here,
 * before the watermark moves.
 */
export async function occurrenceRequests(
  task: string,
  spec: Pick<TaskSpec, 'entries'>,
  occurrences: readonly number[],
  prepare: PrepareRequest,
): Promise<readonly EnqueueRequest[]> {
  const requests: EnqueueRequest[] = [];
  for (const occurrence of occurrences) {
    for (const [job, input] of spec.entries()) {
      const request = await prepare(job, input);
      requests.push({
        ...request,
        idempotencyKey: occurrenceKey(request.idempotencyKey, task, occurrence),
        onConflict: 'dedupe',
      });
    }
  }
  return requests;
}
