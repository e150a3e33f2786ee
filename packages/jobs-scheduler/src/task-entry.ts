import type { EnqueueResult, Registrable } from '@x/jobs-core';
import { isRegistrable, REGISTRABLE } from '@x/jobs-core';
import { schedulerError } from './errors.js';

/** What a task needs of a job handle: its name, its registration hooks and its own enqueue. */
export interface TaskJob extends Registrable {
  enqueue(input: never, options?: never): Promise<EnqueueResult>;
}

/** One `[job, input]` pair a task fires. */
export type TaskEntry = readonly [job: TaskJob, input: unknown];

/**
 * Calls a task's `enqueue` thunk and checks what it answered: an array of `[jobHandle, input]`
 * pairs, else `X_TASK_DECLARATION_INVALID` naming the task and the index.
 */
export function readTaskEntries(task: string, thunk: () => readonly TaskEntry[]): readonly TaskEntry[] {
  const entries: unknown = thunk();
  if (!Array.isArray(entries)) {
    throw schedulerError(
      'X_TASK_DECLARATION_INVALID',
      `task '${task}': enqueue() must answer an array of [job, input] pairs.`,
      { task, field: 'enqueue' },
    );
  }
  entries.forEach((entry: unknown, index) => {
    if (!Array.isArray(entry) || entry.length !== 2 || !isJobHandle(entry[0])) {
      throw schedulerError(
        'X_TASK_DECLARATION_INVALID',
        `task '${task}': enqueue() entry ${index} is not a [job, input] pair with a job() handle first.`,
        { task, field: 'enqueue', index },
      );
    }
  });
  return entries as readonly TaskEntry[];
}

function isJobHandle(value: unknown): value is TaskJob {
  return isRegistrable(value) && value[REGISTRABLE].kind === 'job';
}
