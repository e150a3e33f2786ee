import { type AwaitResultOptions, awaitResult } from '../caller/await-result.js';
import type { EnqueueResult } from '../driver/enqueue.js';
import type { JsonForm } from '../values/json-form.js';

/** What `handle.enqueue` and `handle.as` answer: `{ id, runId, deduped }`, plus a way to await the run. */
export interface EnqueuedJob<Result = unknown> extends EnqueueResult {
  /**
   * Waits for this job to finish and answers its result in JSON form — {@link awaitResult} on
   * `id` (the live row's, on a dedupe). A non-enumerable method: `{ id, runId, deduped }` is still
   * what the answer spreads, logs and compares as. (`R` only carries the job's result type: it keeps
   * a handle assignable to a wider handle type.)
   */
  result<R = Result>(options?: AwaitResultOptions): Promise<JsonForm<R>>;
}

/** Adds `result()` to an enqueue answer, leaving its own fields as they are. */
export function enqueuedJob<Result>(answer: EnqueueResult): EnqueuedJob<Result> {
  const enqueued = { ...answer } as EnqueuedJob<Result>;
  Object.defineProperty(enqueued, 'result', {
    value: (options?: AwaitResultOptions) => awaitResult(answer.id, options) as Promise<never>,
    enumerable: false,
  });
  return enqueued;
}
