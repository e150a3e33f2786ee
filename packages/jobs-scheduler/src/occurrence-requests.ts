import type { EnqueueRequest } from '@x/jobs-core/driver';
import { prepareEnqueue } from '@x/jobs-core/driver';
import { occurrenceKey } from './occurrence-key.js';
import type { TaskSpec } from './task-spec.js';

/**
 * The requests a task's occurrences enqueue, occurrence by occurrence and entry by entry: each
 * pair resolved by core's `prepareEnqueue` (input validated, key and tenant derived), its key rewritten to the
 * occurrence-scoped one, `onConflict` forced to `'dedupe'`. Sends nothing: a bad input fails here,
 * before the watermark moves.
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
      requests.push({
        ...request,
        idempotencyKey: occurrenceKey(request.idempotencyKey, task, occurrence),
        onConflict: 'dedupe',
      });
    }
  }
  return requests;
}
