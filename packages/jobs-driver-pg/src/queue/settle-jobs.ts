import type { ClaimRef, JobProgress, JsonValue, NackOptions } from '@x/jobs-core';
import type { DriverContext } from '../driver-context.js';
import { jsonParam } from '../row-values.js';
import { AckQueue, type PendingAck } from './ack-queue.js';

/** Acks that may be in flight at once: measured best at 4 (W1 drain 11.0k → 12.1k jobs/s vs 2). */
const ACK_BATCH_IN_FLIGHT = 4;
/** Acks per statement at most (a claim carries as many). */
export const ACKS_PER_STATEMENT = 1000;

/**
 * The driver's acks: each claim carries the pending ones (SQL_CLAIM); the rest go out by
 * themselves as SQL_ACK_MANY (a lone ack as SQL_ACK). Each is fenced on its own token.
 */
export function createAckQueue(ctx: DriverContext): AckQueue {
  return new AckQueue(
    async (acks) => {
      if (acks.length === 1) {
        const ack = acks[0] as PendingAck;
        const rows = await ctx.query(ctx.sql.ack, [ack.id, ack.token, ack.result]);
        return [rows.length > 0];
      }
      const rows = await ctx.query<{ acked: number }>(ctx.sql.ackMany, ackParams(acks));
      return landedAcks(acks, rows);
    },
    ACKS_PER_STATEMENT,
    ACK_BATCH_IN_FLIGHT,
  );
}

/** The `(ids, tokens, results)` arrays of a batch of acks. */
export function ackParams(acks: readonly PendingAck[]): [string[], string[], (string | null)[]] {
  const ids = new Array<string>(acks.length);
  const tokens = new Array<string>(acks.length);
  const results = new Array<string | null>(acks.length);
  for (let i = 0; i < acks.length; i += 1) {
    const ack = acks[i] as PendingAck;
    ids[i] = ack.id;
    tokens[i] = ack.token;
    results[i] = ack.result;
  }
  return [ids, tokens, results];
}

/**
 * Per ack of a batch, whether it landed, from the positions (`acked`, 1-based) its statement
 * answered. An (id, token) pair given twice lands once: its first occurrence answers true, the
 * repeats false, whichever position the statement named.
 */
export function landedAcks(
  acks: readonly PendingAck[],
  rows: readonly { readonly acked: number | null }[],
): boolean[] {
  const landed = new Set<string>();
  for (const row of rows) {
    const ack = row.acked === null ? undefined : acks[row.acked - 1];
    if (ack !== undefined) landed.add(`${ack.id}\u0000${ack.token}`);
  }
  return acks.map((ack) => landed.delete(`${ack.id}\u0000${ack.token}`));
}

/** Queues one fenced ack. */
export function ackJob(
  acks: AckQueue,
  jobId: string,
  claim: ClaimRef,
  result: JsonValue | undefined,
): Promise<boolean> {
  return acks.ack(jobId, claim.token, jsonParam(result ?? null));
}

/** Hands a claimed row back (SQL_NACK_RETRY / _RELEASE / _SUSPEND / _DEAD). Fenced on the claim. */
export async function nackJob(
  ctx: DriverContext,
  jobId: string,
  claim: ClaimRef,
  options: NackOptions,
): Promise<boolean> {
  const rows = await (() => {
    switch (options.kind) {
      case 'retry':
        return ctx.query(ctx.sql.nackRetry, [jobId, claim.token, options.runAt, jsonParam(options.error)]);
      case 'release':
        return ctx.query(ctx.sql.nackRelease, [jobId, claim.token, options.runAt ?? null]);
      case 'suspend':
        return ctx.query(ctx.sql.nackSuspend, [jobId, claim.token, options.runAt, options.waitFor ?? null]);
      case 'dead':
        return ctx.query(ctx.sql.nackDead, [
          jobId,
          claim.token,
          jsonParam(options.error),
          options.stopReason,
        ]);
    }
  })();
  return rows.length > 0;
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
