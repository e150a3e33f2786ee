import { type JobDetail, type JobIntrospection, JobsError } from '@x/jobs-core';
import { usageError } from '../errors.js';

/** The row with its steps, or `X_JOB_NOT_FOUND`. An empty id is bad usage. */
export async function findJob(introspect: JobIntrospection, id: string): Promise<JobDetail> {
  if (id.trim() === '')
    throw usageError('The job id is empty.', { hint: "Copy an id from 'x-jobs dead' or your logs." });
  const detail = await introspect.get(id);
  if (detail === null) {
    throw new JobsError('X_JOB_NOT_FOUND', `No job has the id '${id}'.`, { meta: { id } });
  }
  return detail;
}
