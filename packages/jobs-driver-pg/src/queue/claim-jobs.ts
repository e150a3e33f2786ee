import type { ClaimedJob, ClaimOptions } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { type AckQueue, type PendingAck, rejectAcks, resolveAcks } from './ack-queue.js';
import { type ClaimedRow, compareClaimOrder, toClaimedJob } from './claimed-row.js';
import { ACKS_PER_STATEMENT, ackParams, landedAcks } from './settle-jobs.js';

/** A row of SQL_CLAIM: an ack that landed (`acked` set), or a claimed row. */
type ClaimStatementRow = ClaimedRow & { readonly acked: number | null };

/**
 * Takes up to `limit` due rows in one statement (SQL_CLAIM), best first, landing the acks
 * pending on `acks` in the same statement. Those acks are answered from it (or fail with it).
 */
export async function claimJobs(
  ctx: DriverContext,
  acks: AckQueue,
  options: ClaimOptions,
): Promise<readonly ClaimedJob[]> {
  const limit = Math.trunc(options.limit);
  if (options.queues.length === 0 || !(limit >= 1)) return [];
  const carried: readonly PendingAck[] = acks.take(ACKS_PER_STATEMENT);
  let rows: ClaimStatementRow[];
  try {
    rows = await ctx.query<ClaimStatementRow>(ctx.sql.claim, [
      [...options.queues],
      limit,
      options.workerId,
      options.visibilityTimeoutMs,
      ...ackParams(carried),
    ]);
  } catch (error) {
    rejectAcks(carried, error);
    throw error;
  }
  if (carried.length > 0) resolveAcks(carried, landedAcks(carried, rows));
  const claimed = rows.filter((row) => row.acked === null);
  return claimed.sort(compareClaimOrder).map((row) => toClaimedJob(row, options.workerId));
}
