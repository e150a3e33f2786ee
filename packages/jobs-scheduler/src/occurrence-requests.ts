import { JobsError, VALUE_LIMITS } from '@x/jobs-core';
import type { EnqueueRequest } from '@x/jobs-core/driver';
import { prepareEnqueue } from '@x/jobs-core/driver';
import { occurrenceKey } from './occurrence-key.js';
import type { TaskSpec } from './task-spec.js';

/**
 * The requests a task's occurrences enqueue, occurrence by occurrence and entry by entry: each
 * pair resolved by core's `prepareEnqueue` (input validated, key and tenant derived), its key rewritten to the
 * occurrence-scoped one, `onConflict` forced to `'dedupe'`. Sends nothing: a bad input fails here,
 * before the watermark moves. The occurrence suffix lengthens the key core checked, so the key is
 * checked again against core's limit: over it is `X_JOB_INPUT_INVALID`, as at any enqueue.
 */
export function occurrenceRequests(
  task: string,
  spec: Pick<TaskSpec, 'entries'>,
  occurrences: readonly number[],
): readonly EnqueueRequest[] {
  const requests: EnqueueRequest[] = [];
  for (const occurrence of occurrences) {
    for (const [job, input] of spec.entries()) {
      const request = prepareEnqueue(job, input);
      const idempotencyKey = occurrenceKey(request.idempotencyKey, task, occurrence);
      const bytes = Buffer.byteLength(idempotencyKey, 'utf8');
      if (bytes > VALUE_LIMITS.idempotencyKeyBytes) {
        throw new JobsError(
          'X_JOB_INPUT_INVALID',
          `Task '${task}': job '${request.name}''s idempotency key, scoped to its occurrence, is ${bytes} bytes; at most ${VALUE_LIMITS.idempotencyKeyBytes} are stored. Shorten the job's key.`,
          {
            meta: {
              task,
              job: request.name,
              path: 'idempotencyKey',
              bytes,
              max: VALUE_LIMITS.idempotencyKeyBytes,
            },
          },
        );
      }
      requests.push({ ...request, idempotencyKey, onConflict: 'dedupe' });
    }
  }
  return requests;
}
