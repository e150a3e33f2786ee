import type { ClaimedJob, ClaimOptions, FairPolicy } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { type ClaimedRow, toClaimedJob } from './claimed-row.js';

type FairRow = ClaimedRow & { readonly rank: number | string };

/**
 * The claim of a fair queue: in one READ COMMITTED transaction, locks the queue's `fair_queues`
 * row (adding it on the queue's first fair claim), then runs SQL_CLAIM_FAIR, which reads the
 * counters the previous claim wrote, takes the rows and writes the service it gave. The lock
 * serializes the queue's fair claims across processes; each statement reads a fresh snapshot, so
 * the claim after the lock sees the rows and counters of every claim before it.
 */
export async function claimFairJobs(
  ctx: DriverContext,
  options: ClaimOptions,
  policy: FairPolicy,
  limit: number,
  start: number,
): Promise<readonly ClaimedJob[]> {
  const queue = options.queues[0];
  const weighted = [...policy.weights.keys()];
  const rows = await ctx.transaction(async (_trx, session) => {
    if ((await session.query(ctx.sql.claimFairLock, [queue])).length === 0) {
      await session.query(ctx.sql.claimFairOpen, [queue]);
      await session.query(ctx.sql.claimFairLock, [queue]);
    }
    return session.query<FairRow>(ctx.sql.claimFair, [
      queue,
      limit,
      options.workerId,
      options.visibilityTimeoutMs,
      start,
      weighted,
      weighted.map((tenant) => policy.costOf(tenant)),
      policy.costOf(null),
    ]);
  });
  return rows
    .sort((a, b) => Number(a.rank) - Number(b.rank))
    .map((row) => toClaimedJob(row, options.workerId));
}
