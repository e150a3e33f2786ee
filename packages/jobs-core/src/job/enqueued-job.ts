import type { EnqueueResult } from '../driver/enqueue.js';
import type { JsonForm } from '../values/json-form.js';
import type { AwaitResultOptions } from './await-result-options.js';

/** What `handle.enqueue` and `handle.as` answer: `{ id, runId, deduped }`, plus a way to await the run. */
export interface EnqueuedJob<Result = unknown> extends EnqueueResult {
  /**
   * Waits for this job to finish and answers its result in JSON form — `awaitResult` on
   * `id` (the live row's, on a dedupe). A non-enumerable method: `{ id, runId, deduped }` is still
   * what the answer spreads, logs and compares as. (`R` only carries the job's result type: it keeps
   * a handle assignable to a wider handle type.)
   */
  result<R = Result>(options?: AwaitResultOptions): Promise<JsonForm<R>>;
}
