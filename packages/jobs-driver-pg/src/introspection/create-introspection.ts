import type { JobIntrospection } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { getJob, listJobs } from './job-listing.js';
import { cancelJob, promoteJob, purgeDone, removeJob, resolveStep, retryJob } from './job-operations.js';
import { pausedQueues, pauseQueue, resumeQueue } from './queue-pause.js';
import { listWorkers, removeWorker, reportWorker } from './worker-registry.js';

/** The operator surface (`driver.introspect`) over the driver's tables. */
export function createIntrospection(ctx: DriverContext): JobIntrospection {
  return {
    list: (query) => listJobs(ctx, query),
    get: (id) => getJob(ctx, id),
    retry: (id, options) => retryJob(ctx, id, options?.fromStep),
    cancel: (id, reason) => cancelJob(ctx, id, reason),
    remove: (id) => removeJob(ctx, id),
    promote: (id) => promoteJob(ctx, id),
    pause: (queue) => pauseQueue(ctx, queue),
    resume: (queue) => resumeQueue(ctx, queue),
    pausedQueues: () => pausedQueues(ctx),
    resolveStep: (jobId, step, resolution) => resolveStep(ctx, jobId, step, resolution),
    reportWorker: (info, ttlMs) => reportWorker(ctx, info, ttlMs),
    removeWorker: (id) => removeWorker(ctx, id),
    workers: () => listWorkers(ctx),
    purge: (options) => purgeDone(ctx, options.doneBefore),
  };
}
