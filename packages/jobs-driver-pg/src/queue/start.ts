import type { CallBatcher, ClaimRef } from '@x/jobs-core/driver';
import type { DriverContext } from '../driver-context.js';
import { columnsOf, type FencedCall, fencedBatch } from './landed-calls.js';

interface StartItem extends FencedCall {
  readonly visibilityTimeoutMs: number;
}

/** Starts that may be in flight at once: as many as acks (they share the pool the same way). */
const START_BATCH_IN_FLIGHT = 4;

/**
 * Starts through a {@link CallBatcher}, as acks go: the starts gathered while earlier batches
 * commit leave as one SQL_START_MANY (a lone start as SQL_START), at most 1,000 per statement,
 * each fenced on its own token. A worker that frees ten slots at once starts ten bodies in one
 * round trip instead of ten.
 */
export function createStartBatch(ctx: DriverContext): CallBatcher<StartItem, boolean> {
  return fencedBatch<StartItem>(
    ctx,
    {
      one: (item) => [ctx.sql.start, [item.id, item.token, item.visibilityTimeoutMs]],
      many: (items) => [ctx.sql.startMany, columnsOf(items, ['id', 'token', 'visibilityTimeoutMs'])],
    },
    START_BATCH_IN_FLIGHT,
  );
}

/** Queues one fenced start on the batch. */
export function startJob(
  batch: CallBatcher<StartItem, boolean>,
  jobId: string,
  claim: ClaimRef,
  visibilityTimeoutMs: number,
): Promise<boolean> {
  return batch.call({ id: jobId, token: claim.token, visibilityTimeoutMs });
}
