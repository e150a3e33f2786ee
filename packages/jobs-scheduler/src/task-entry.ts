import type { AnyJobHandle, JobHandle } from '@x/jobs-core';
import { isJobHandle } from '@x/jobs-core';
import { schedulerError } from './errors.js';

/** One `[job, input]` pair a task fires, whatever the job's input type. */
export type TaskEntry = readonly [job: AnyJobHandle, input: unknown];

/**
 * The pairs a task's `enqueue` answers, each input checked against its own job's input type:
 * `[[sendDigest, {}], [rollup, { day }]]`.
 */
export type TaskEntries<Inputs extends readonly unknown[]> = {
  // biome-ignore lint/suspicious/noExplicitAny: any job input and result; only the enqueue input is checked.
  readonly [K in keyof Inputs]: readonly [job: JobHandle<any, any, Inputs[K]>, input: NoInfer<Inputs[K]>];
};

/**
 * Calls a task's `enqueue` thunk and checks what it answered: an array of `[jobHandle, input]`
 * pairs, else `X_TASK_DECLARATION_INVALID` naming the task and the index.
 */
export function readTaskEntries(task: string, thunk: () => readonly unknown[]): readonly TaskEntry[] {
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
