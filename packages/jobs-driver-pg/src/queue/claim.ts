import { type ClaimedJob, type ClaimOptions, isFairClaim } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { claimFairJobs } from './claim-fair.js';
import { type ClaimedRow, compareClaimOrder, toClaimedJob } from './claimed-row.js';

/**
 * Takes up to `limit` due rows in one statement, best first: SQL_CLAIM, or for a queue with
 * `fairness` the fair claim (`claimFairJobs`, answered in its fair order).
 */
export async function claimJobs(ctx: DriverContext, options: ClaimOptions): Promise<readonly ClaimedJob[]> {
  const fair = isFairClaim(ctx.queues, options);
  const limit = Math.trunc(options.limit);
  if (options.queues.length === 0 || !(limit >= 1)) return [];
  const start = Math.max(0, Math.trunc(options.start ?? 0));
  if (fair)
    return claimFairJobs(ctx, options, ctx.queues.fairPolicies.get(options.queues[0]!)!, limit, start);
  const rows = await ctx.query<ClaimedRow>(ctx.sql.claim, [
    [...options.queues],
    limit,
    options.workerId,
    options.visibilityTimeoutMs,
    start,
  ]);
  return rows.sort(compareClaimOrder).map((row) => toClaimedJob(row, options.workerId));
}
