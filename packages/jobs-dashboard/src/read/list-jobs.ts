import type { JobIntrospection } from '@x/jobs-core';
import { type JobFilter, toListQuery } from './job-filter.js';
import { type JobListJson, toJobSummary } from './job-summary-view.js';

/**
 * One page of jobs matching `filter`, newest enqueued first, as summaries (no payloads). What
 * `x-jobs jobs`, `x-jobs dead` and the dashboard's jobs and dead-letter pages list.
 */
export async function listJobs(introspect: JobIntrospection, filter: JobFilter = {}): Promise<JobListJson> {
  const page = await introspect.list(toListQuery(filter));
  return { jobs: page.jobs.map(toJobSummary), nextCursor: page.nextCursor };
}
