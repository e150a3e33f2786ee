import type { ClaimRef } from '@x/jobs-core/driver';
import { CallBatcher } from '@x/jobs-core/driver';
import { callScript, type DriverContext } from '../driver-context.js';
import { flagsOf } from '../flag-reply.js';
import { START_SCRIPT } from '../lua/start.lua.js';

/** Starts per start-script call, and how many such calls may be in flight at once (as acks). */
const START_BATCH_MAX = 500;
const START_BATCH_IN_FLIGHT = 1;

/** One start waiting for its script call: the row, its claim token, the lease it buys. */
type PendingStart = readonly [jobId: string, token: string, visibilityTimeoutMs: number];

/** A batched `start`: what a driver keeps per instance. */
export type StartBatch = CallBatcher<PendingStart, boolean>;

/**
 * Starts through a {@link CallBatcher}, as acks go: the starts gathered while an earlier call runs
 * leave together as one start-script call (at most {@link START_BATCH_MAX}), each fenced on its
 * own token.
 */
export function createStartBatch(context: DriverContext): StartBatch {
  return new CallBatcher<PendingStart, boolean>(
    (batch) => startMany(context, batch),
    START_BATCH_MAX,
    START_BATCH_IN_FLIGHT,
  );
}

/** Queues one fenced start on the batch. */
export function startJob(
  batch: StartBatch,
  jobId: string,
  claim: ClaimRef,
  visibilityTimeoutMs: number,
): Promise<boolean> {
  return batch.call([jobId, claim.token, Math.max(0, Math.round(visibilityTimeoutMs))]);
}

async function startMany(context: DriverContext, batch: readonly PendingStart[]): Promise<boolean[]> {
  const args: (string | number)[] = [];
  for (const [jobId, token, visibilityTimeoutMs] of batch) args.push(jobId, token, visibilityTimeoutMs);
  return flagsOf(await callScript(context, 'start', START_SCRIPT, args), batch.length, 'start');
}
