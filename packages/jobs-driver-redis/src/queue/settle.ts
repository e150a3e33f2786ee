import type { JsonValue } from '@x/jobs-core';
import type { AttemptFailure, ClaimRef, JobProgress, NackOptions } from '@x/jobs-core/driver';
import { ATTEMPT_ERROR_LIMITS, CallBatcher, isJobsError } from '@x/jobs-core/driver';
import { callFlag, callScript, type DriverContext } from '../driver-context.js';
import { flagsOf } from '../flag-reply.js';
import { ACK_MANY_SCRIPT } from '../lua/ack-many.lua.js';
import { ATTEMPT_ERROR_RECORD_SCRIPT } from '../lua/attempt-error-record.lua.js';
import { HEARTBEAT_SCRIPT } from '../lua/heartbeat.lua.js';
import { NACK_SCRIPT } from '../lua/nack.lua.js';
import { PROGRESS_SCRIPT } from '../lua/progress.lua.js';
import { optionalArg } from '../optional-arg.js';

/** Acks per ack-many call, and how many such calls may be in flight at once. */
const ACK_BATCH_MAX = 500;
const ACK_BATCH_IN_FLIGHT = 1;

/** One ack waiting for its ack-many call: the row, its claim token, its result JSON. */
type PendingAck = readonly [jobId: string, token: string, result: string];

/** A batched `ack`: what a driver keeps per instance. */
export type AckBatch = CallBatcher<PendingAck, boolean>;

/** Acks through a {@link CallBatcher}: the acks gathered while a call runs leave as one ack-many call. */
export function createAckBatch(context: DriverContext): AckBatch {
  return new CallBatcher<PendingAck, boolean>(
    (batch) => ackMany(context, batch),
    ACK_BATCH_MAX,
    ACK_BATCH_IN_FLIGHT,
  );
}

/** Queues one fenced ack on the batch. */
export function ackJob(
  batch: AckBatch,
  jobId: string,
  claim: ClaimRef,
  result?: JsonValue,
): Promise<boolean> {
  return batch.call([
    jobId,
    claim.token,
    result === undefined || result === null ? 'null' : JSON.stringify(result),
  ]);
}

/**
 * Hands a running row back (the nack script). Fenced on the claim. A retry or dead nack that
 * carries the attempt's `failure` records it first (the attempt-error-record script, idempotent per
 * claim); a Redis at its memory limit refuses that write, and the nack then goes on without the
 * record: draining must not need memory.
 */
export async function nackJob(
  context: DriverContext,
  jobId: string,
  claim: ClaimRef,
  options: NackOptions,
): Promise<boolean> {
  if ((options.kind === 'retry' || options.kind === 'dead') && options.failure !== undefined) {
    const recorded = await recordAttemptError(context, jobId, claim, options.failure);
    if (!recorded) return false;
  }
  return callFlag(context, 'nack', NACK_SCRIPT, [jobId, claim.token, ...nackArgs(options)]);
}

/** Records one failed attempt on the row; false when the claim no longer holds it. */
async function recordAttemptError(
  context: DriverContext,
  jobId: string,
  claim: ClaimRef,
  failure: AttemptFailure,
): Promise<boolean> {
  try {
    return await callFlag(context, 'attempt-error-record', ATTEMPT_ERROR_RECORD_SCRIPT, [
      jobId,
      claim.token,
      JSON.stringify(failure),
      ATTEMPT_ERROR_LIMITS.perJob,
    ]);
  } catch (error) {
    if (isJobsError(error, 'X_REDIS_OUT_OF_MEMORY')) return true;
    throw error;
  }
}

/** Extends the lease (the heartbeat script); false when the claim lost the row. */
export function heartbeatJob(
  context: DriverContext,
  jobId: string,
  claim: ClaimRef,
  visibilityTimeoutMs: number,
): Promise<boolean> {
  return callFlag(context, 'heartbeat', HEARTBEAT_SCRIPT, [
    jobId,
    claim.token,
    Math.max(0, Math.round(visibilityTimeoutMs)),
  ]);
}

/** Stores progress on the row (the progress script). Fenced on the claim. */
export function recordProgress(
  context: DriverContext,
  jobId: string,
  claim: ClaimRef,
  progress: JobProgress,
): Promise<boolean> {
  return callFlag(context, 'progress', PROGRESS_SCRIPT, [
    jobId,
    claim.token,
    JSON.stringify({ current: progress.current, total: progress.total }),
  ]);
}

/** Sends the acks gathered by the batcher as one ack-many call; answers per ack, in order. */
async function ackMany(context: DriverContext, batch: readonly PendingAck[]): Promise<boolean[]> {
  const args: (string | number)[] = [context.doneTtlMs];
  for (const [jobId, token, result] of batch) args.push(jobId, token, result);
  return flagsOf(await callScript(context, 'ack', ACK_MANY_SCRIPT, args), batch.length, 'ack-many');
}

function nackArgs(options: NackOptions): (string | number)[] {
  switch (options.kind) {
    case 'retry':
      return ['retry', Math.round(options.runAt), '', optionalArg(JSON.stringify(options.error)), ''];
    case 'release':
      return ['release', options.runAt === undefined ? '' : Math.round(options.runAt), '', '', ''];
    case 'suspend':
      return ['suspend', Math.round(options.runAt), optionalArg(options.waitFor), '', ''];
    case 'dead':
      return ['dead', '', '', optionalArg(JSON.stringify(options.error)), optionalArg(options.stopReason)];
  }
}
