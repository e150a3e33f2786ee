import type { ClaimedJob, ClaimOptions } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { type ClaimedRow, compareClaimOrder, toClaimedJob } from './claimed-row.js';

/** Takes up to `limit` due rows in one statement (SQL_CLAIM), best first. */
export async function claimJobs(ctx: DriverContext, options: ClaimOptions): Promise<readonly ClaimedJob[]> {
  const limit = Math.trunc(options.limit);
  if (options.queues.length === 0 || !(limit >= 1)) return [];
  const rows = await ctx.query<ClaimedRow>(ctx.sql.claim, [
    [...options.queues],
    limit,
    options.workerId,
    options.visibilityTimeoutMs,
    Math.max(0, Math.trunc(options.start ?? 0)),
  ]);
  return rows.sort(compareClaimOrder).map((row) => toClaimedJob(row, options.workerId));
}
