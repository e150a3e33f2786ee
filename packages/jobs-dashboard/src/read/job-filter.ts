import { JOB_STATES, type JobListQuery, type JobState } from '@x/jobs-core';
import { dashboardError } from '../errors.js';

/** What a job list is narrowed to: the introspection query itself (every field optional). */
export type JobFilter = JobListQuery;

/** The default page size of a job list. */
export const DEFAULT_PAGE_SIZE = 50;

/** True when `value` is one of the seven row states. */
export function isJobState(value: string): value is JobState {
  return (JOB_STATES as readonly string[]).includes(value);
}

/**
 * Reads a filter from query-string fields (`queue`, `state`, `name`, `tenant`, `limit`,
 * `cursor`); empty strings count as absent. An unknown state or a limit outside 1–1000 is
 * `X_DASHBOARD_BAD_REQUEST` with `meta.field`.
 */
export function parseJobFilter(fields: (name: string) => string | null): JobFilter {
  const read = (name: string): string | undefined => {
    const value = fields(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const state = read('state');
  if (state !== undefined && !isJobState(state)) {
    throw dashboardError('X_DASHBOARD_BAD_REQUEST', `state: one of ${JOB_STATES.join(', ')}.`, {
      field: 'state',
    });
  }
  const limitText = read('limit');
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) {
    throw dashboardError('X_DASHBOARD_BAD_REQUEST', 'limit: a whole number from 1 to 1000.', {
      field: 'limit',
    });
  }
  const queue = read('queue');
  const name = read('name');
  const tenantId = read('tenant');
  const cursor = read('cursor');
  return {
    ...(queue === undefined ? {} : { queue }),
    ...(state === undefined ? {} : { state }),
    ...(name === undefined ? {} : { name }),
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(limit === undefined ? {} : { limit }),
    ...(cursor === undefined ? {} : { cursor }),
  };
}

/** The introspection query for a filter, with the default page size filled in. */
export function toListQuery(filter: JobFilter): JobListQuery {
  return { ...filter, limit: filter.limit ?? DEFAULT_PAGE_SIZE };
}
