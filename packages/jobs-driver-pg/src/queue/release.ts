import type { CallBatcher, ClaimRef } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { columnsOf, type FencedCall, fencedBatch } from './landed-calls.js';

/** One hand-back waiting in the batch. */
export interface ReleaseItem extends FencedCall {
  readonly runAt: number | null;
}

/**
 * Hand-back batches in flight at once. One: a worker hands back the stale rows of its buffer, or a
 * draining worker everything it holds, all in one turn, so one statement takes them all; a second
 * flight would only split them across connections the claims and step saves need.
 */
const RELEASE_BATCH_IN_FLIGHT = 1;

/**
 * Hand-backs (`nack` with `kind: 'release'`) batched: those gathered while an earlier batch
 * commits leave as one SQL_NACK_RELEASE_MANY (a lone one as SQL_NACK_RELEASE), each fenced on its
 * own token. Sent one statement each, the 60 hand-backs of a 100-run W7 drain each held a pool
 * connection for ≈ 350 ms (waiting their turn for one) while the runs' step saves queued behind them.
 */
export function createReleaseBatch(ctx: DriverContext): CallBatcher<ReleaseItem, boolean> {
  return fencedBatch<ReleaseItem>(
    ctx,
    {
      one: (item) => [ctx.sql.nackRelease, [item.id, item.token, item.runAt]],
      many: (items) => [ctx.sql.nackReleaseMany, columnsOf(items, ['id', 'token', 'runAt'])],
    },
    RELEASE_BATCH_IN_FLIGHT,
  );
}

/** Queues one fenced hand-back on the batch; `runAt` null makes the row due now. */
export function releaseJob(
  batch: CallBatcher<ReleaseItem, boolean>,
  jobId: string,
  claim: ClaimRef,
  runAt: number | null,
): Promise<boolean> {
  return batch.call({ id: jobId, token: claim.token, runAt });
}
