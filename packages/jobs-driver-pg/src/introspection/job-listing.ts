import type { AttemptErrorRecord, JobDetail, JobListQuery, JobPage } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { pgError } from '../errors.js';
import { type JobRow, toJobRecord } from '../job-row.js';
import { toNumber } from '../row-values.js';
import { MOVED_COLUMN_NAMES, ROW_COLUMN_NAMES } from '../sql/job-columns.js';
import { toStepRecord } from '../stores/step-store.js';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 1000;

/**
 * One page of rows, newest enqueued first, keyset-paged on `seq` (the cursor is the last seq),
 * over live rows (`jobs`) and finished ones (`job_history`) in one statement, so a row that
 * moves between the tables meanwhile is seen once.
 */
export async function listJobs(ctx: DriverContext, query: JobListQuery = {}): Promise<JobPage> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_PAGE), 1), MAX_PAGE);
  const cursor = query.cursor === undefined ? undefined : parseCursor(query.cursor);
  const rows = (await ctx.build((db) => {
    const side = (table: 'jobs' | 'job_history') => {
      let select = db.selectFrom(table).select(ROW_COLUMN_NAMES);
      if (query.queue !== undefined) select = select.where('queue', '=', query.queue);
      if (query.state !== undefined) select = select.where('state', '=', query.state);
      if (query.name !== undefined) select = select.where('name', '=', query.name);
      if (query.tenantId !== undefined) select = select.where('tenant_id', '=', query.tenantId);
      if (cursor !== undefined) select = select.where('seq', '<', cursor);
      return select;
    };
    return db
      .selectFrom(
        side('jobs')
          .unionAll(side('job_history') as never)
          .as('u'),
      )
      .selectAll()
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
  })) as unknown as JobRow[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    jobs: page.map(toJobRecord),
    nextCursor: rows.length > limit && last !== undefined ? String(toNumber(last.seq)) : null,
  };
}

/**
 * The row with its steps (ordered by position), or null: from `jobs` or `job_history`, read in
 * one statement (one snapshot), so a row settling meanwhile is found in one of them.
 */
export async function getJob(ctx: DriverContext, id: string): Promise<JobDetail | null> {
  const row = (await ctx.build((db) =>
    db
      .selectFrom('jobs')
      .select(MOVED_COLUMN_NAMES)
      .where('id', '=', id)
      .unionAll(db.selectFrom('job_history').select(MOVED_COLUMN_NAMES).where('id', '=', id) as never)
      .executeTakeFirst(),
  )) as (JobRow & { readonly attempt_errors: AttemptErrorRecord[] | null }) | undefined;
  if (row === undefined) return null;
  const steps = await ctx.build((db) =>
    db
      .selectFrom('steps')
      .select(['name', 'position', 'status', 'output', 'error', 'started_at', 'completed_at'])
      .where('run_id', '=', row.run_id)
      .orderBy('position')
      .execute(),
  );
  return { ...toJobRecord(row), steps: steps.map(toStepRecord), errors: row.attempt_errors ?? [] };
}

function parseCursor(cursor: string): string {
  if (!/^\d{1,19}$/.test(cursor)) {
    throw pgError('X_PG_OPTIONS_INVALID', 'cursor: pass the nextCursor of a previous page.', {
      field: 'cursor',
    });
  }
  return cursor;
}
