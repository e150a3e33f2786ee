import type { EnqueueResult } from '../driver/enqueue.js';
import type { AwaitResultOptions } from '../job/await-result-options.js';
import type { EnqueuedJob } from '../job/enqueued-job.js';
import { awaitResult } from './await-result.js';

/** Adds `result()` to an enqueue answer, leaving its own fields as they are. */
export function enqueuedJob<Result>(answer: EnqueueResult): EnqueuedJob<Result> {
  const enqueued = { ...answer } as EnqueuedJob<Result>;
  Object.defineProperty(enqueued, 'result', {
    value: (options?: AwaitResultOptions) => awaitResult(answer.id, options) as Promise<never>,
    enumerable: false,
  });
  return enqueued;
}
