import type { JsonValue } from '@x/jobs-core';
import type { AttemptFailure, CallBatcher, ClaimRef, JobProgress, NackOptions } from '@x/jobs-core/driver';
import { ATTEMPT_ERROR_LIMITS } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { jsonParam } from '../row-values.js';
import { columnsOf, type FencedCall, fencedBatch } from './landed-calls.js';
import { type ReleaseItem, releaseJob } from './release.js';

interface AckItem extends FencedCall {
  readonly result: string | null;
}

/** Acks that may be in flight at once: measured best at 4 (W1 drain 11.0k → 12.1k jobs/s vs 2). */
const ACK_BATCH_IN_FLIGHT = 4;

/**
 * Acks through a {@link CallBatcher}: the acks gathered while earlier batches commit go out as one
 * SQL_ACK_MANY (a lone ack as SQL_ACK), at most 1,000 per statement. Each is fenced on its own
 * token. They never ride on a claim: a claim is what a draining worker waits for, and an ack in
 * its statement made it wait longer (W1 drain, 5 runs each: 2.8k jobs/s with acks carried by the
 * next claim vs 3.8k with acks in their own statements, on a loaded 2-core machine).
 */
export function createAckBatch(ctx: DriverContext): CallBatcher<AckItem, boolean> {
  return fencedBatch<AckItem>(
    ctx,
    {
      one: (item) => [
        ctx.sql.ack,
        ctx.sql.ackTakesResult ? [item.id, item.token, item.result] : [item.id, item.token],
      ],
      many: (items) => [ctx.sql.ackMany, columnsOf(items, ['id', 'token', 'result'])],
      positions: 'acked',
    },
    ACK_BATCH_IN_FLIGHT,
  );
}

/** Queues one fenced ack on the batch. */
export function ackJob(
  batch: CallBatcher<AckItem, boolean>,
  jobId: string,
  claim: ClaimRef,
  result: JsonValue | undefined,
): Promise<boolean> {
  return batch.call({ id: jobId, token: claim.token, result: jsonParam(result ?? null) });
}

/**
 * Hands a claimed row back (SQL_NACK_RETRY / _SUSPEND / _DEAD; a release goes through `releases`,
 * batched). Fenced on the claim.
 */
export async function nackJob(
  ctx: DriverContext,
  releases: CallBatcher<ReleaseItem, boolean>,
  jobId: string,
  claim: ClaimRef,
  options: NackOptions,
): Promise<boolean> {
  if (options.kind === 'release') return releaseJob(releases, jobId, claim, options.runAt ?? null);
  if (options.kind !== 'suspend' && options.failure !== undefined) {
    return nackWithFailure(ctx, jobId, claim, options, options.failure);
  }
  const rows = await ctx.query(...nackStatement(ctx, jobId, claim, options));
  return rows.length > 0;
}

/** The statement and parameters of a retry, suspend or dead nack. */
function nackStatement(
  ctx: DriverContext,
  jobId: string,
  claim: ClaimRef,
  options: Exclude<NackOptions, { kind: 'release' }>,
): [string, unknown[]] {
  switch (options.kind) {
    case 'retry':
      return [ctx.sql.nackRetry, [jobId, claim.token, options.runAt, jsonParam(options.error)]];
    case 'suspend':
      return [ctx.sql.nackSuspend, [jobId, claim.token, options.runAt, options.waitFor ?? null]];
    case 'dead':
      return [ctx.sql.nackDead, [jobId, claim.token, jsonParam(options.error), options.stopReason]];
  }
}

/**
 * A retry or dead nack with the attempt's record: SQL_ATTEMPT_ERROR_RECORD, then the nack, in one
 * transaction (both fenced on the claim), so the record lands exactly when the nack does.
 */
function nackWithFailure(
  ctx: DriverContext,
  jobId: string,
  claim: ClaimRef,
  options: Exclude<NackOptions, { kind: 'release' | 'suspend' }>,
  failure: AttemptFailure,
): Promise<boolean> {
  return ctx.transaction(async (_trx, session) => {
    const recorded = await session.query(ctx.sql.attemptErrorRecord, [
      jobId,
      claim.token,
      jsonParam(failure as unknown as JsonValue),
      ATTEMPT_ERROR_LIMITS.perJob,
    ]);
    if (recorded.length === 0) return false;
    const rows = await session.query(...nackStatement(ctx, jobId, claim, options));
    return rows.length > 0;
  });
}

/** Extends the lease (SQL_HEARTBEAT); false when the claim lost the row. */
export async function heartbeatJob(
  ctx: DriverContext,
  jobId: string,
  claim: ClaimRef,
  visibilityTimeoutMs: number,
): Promise<boolean> {
  const rows = await ctx.query(ctx.sql.heartbeat, [jobId, claim.token, visibilityTimeoutMs]);
  return rows.length > 0;
}

/** Stores progress on the row (SQL_PROGRESS). Fenced on the claim. */
export async function recordProgress(
  ctx: DriverContext,
  jobId: string,
  claim: ClaimRef,
  progress: JobProgress,
): Promise<boolean> {
  const rows = await ctx.query(ctx.sql.progress, [
    jobId,
    claim.token,
    jsonParam({ current: progress.current, total: progress.total }),
  ]);
  return rows.length > 0;
}
