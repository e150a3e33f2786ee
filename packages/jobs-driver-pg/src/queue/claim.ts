import { type ClaimedJob, type ClaimOptions, isFairClaim } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { type ClaimedRow, compareClaimOrder, toClaimedJob } from './claimed-row.js';

/**
 * Takes up to `limit` due rows in one statement, best first: SQL_CLAIM, or SQL_CLAIM_FAIR for a
 * queue with `fairness: 'tenant'` (answered in its fair order).
 */
export async function claimJobs(ctx: DriverContext, options: ClaimOptions): Promise<readonly ClaimedJob[]> {
  const fair = isFairClaim(ctx.queues, options);
  const limit = Math.trunc(options.limit);
  if (options.queues.length === 0 || !(limit >= 1)) return [];
  const start = Math.max(0, Math.trunc(options.start ?? 0));
  if (fair) {
    const rows = await ctx.query<ClaimedRow & { readonly rank: number | string }>(ctx.sql.claimFair, [
      options.queues[0],
      limit,
      options.workerId,
      options.visibilityTimeoutMs,
      start,
    ]);
    return rows
      .sort((a, b) => Number(a.rank) - Number(b.rank))
      .map((row) => toClaimedJob(row, options.workerId));
  }
  const rows = await ctx.query<ClaimedRow>(ctx.sql.claim, [
    [...options.queues],
    limit,
    options.workerId,
    options.visibilityTimeoutMs,
    start,
  ]);
  return rows.sort(compareClaimOrder).map((row) => toClaimedJob(row, options.workerId));
}
