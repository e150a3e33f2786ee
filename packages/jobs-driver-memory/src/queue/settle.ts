import type { JsonValue } from '@x/jobs-core';
import type { ClaimRef, JobProgress, NackOptions } from '@x/jobs-core/driver';
import { copyJson } from '../json-copy.js';
import type { MemoryJobRow } from '../memory-job-row.js';
import { recordAttemptError } from '../memory-rows.js';
import { heldRow, type MemoryStore, moveTo, notifyDue, refile } from '../memory-store.js';

/** Takes the row out of `running`: clears the lease and token so the old claim is fenced out. */
function endClaim(row: MemoryJobRow): void {
  row.token = null;
  row.leaseExpiresAt = null;
}

/** Hands back the attempt this claim started, if it started one (release and suspend). */
function uncountStart(row: MemoryJobRow): void {
  if (row.startedAt !== null) row.attempts = Math.max(0, row.attempts - 1);
}

/** Marks the held row `done` with its result. False when the claim no longer holds it. */
export function ackRow(
  store: MemoryStore,
  jobId: string,
  claim: ClaimRef,
  result: JsonValue | undefined,
): boolean {
  const row = heldRow(store, jobId, claim.token);
  if (row === undefined) return false;
  endClaim(row);
  row.result = copyJson(result);
  row.finishedAt = store.clock.now();
  moveTo(store, row, 'done');
  return true;
}

/** Hands the held row back as {@link NackOptions} says. False when the claim no longer holds it. */
export function nackRow(store: MemoryStore, jobId: string, claim: ClaimRef, options: NackOptions): boolean {
  const row = heldRow(store, jobId, claim.token);
  if (row === undefined) return false;
  const now = store.clock.now();
  endClaim(row);
  switch (options.kind) {
    case 'retry':
      row.lastError = { ...options.error };
      if (options.failure !== undefined) recordAttemptError(row, options.failure, now);
      requeue(store, row, options.runAt, now);
      break;
    case 'release':
      uncountStart(row);
      requeue(store, row, options.runAt ?? now, now);
      break;
    case 'suspend': {
      uncountStart(row);
      const waitFor = options.waitFor ?? null;
      const published = waitFor !== null && publishedSinceStart(store, row, waitFor, now);
      row.runAt = published ? Math.min(now, options.runAt) : options.runAt;
      row.waitingFor = waitFor;
      moveTo(store, row, 'suspended');
      if (row.runAt <= now) notifyDue(store, row.queue);
      break;
    }
    case 'dead':
      row.lastError = { ...options.error };
      if (options.failure !== undefined) recordAttemptError(row, options.failure, now);
      row.stopReason = options.stopReason;
      row.finishedAt = now;
      moveTo(store, row, 'dead');
      break;
  }
  return true;
}

/**
 * Whether an unexpired event named `event` was published after this attempt started — in the same
 * clock tick too, as Postgres and Redis count it: one the run may have missed between its look and
 * its suspend, so the suspend makes it due now. "After" is the store's order, not the clock: under a
 * clock that does not move (a test's virtual clock) an event published before the start would
 * otherwise make every replay of the run due again at once, forever.
 */
function publishedSinceStart(store: MemoryStore, row: MemoryJobRow, event: string, now: number): boolean {
  if (row.startedAt === null) return false;
  const startSeq = row.startSeq;
  return store.events.some(
    (record) => record.event === event && record.seq > startSeq && record.expiresAt > now,
  );
}

/** Puts a row back in line at `runAt`: `ready` when due, else `delayed`. */
export function requeue(store: MemoryStore, row: MemoryJobRow, runAt: number, now: number): void {
  row.runAt = runAt;
  moveTo(store, row, runAt > now ? 'delayed' : 'ready');
  if (row.state === 'ready') notifyDue(store, row.queue);
}

/** Extends the held row's lease to now + `visibilityTimeoutMs`. False when the claim no longer holds it. */
export function heartbeatRow(
  store: MemoryStore,
  jobId: string,
  claim: ClaimRef,
  visibilityTimeoutMs: number,
): boolean {
  const row = heldRow(store, jobId, claim.token);
  if (row === undefined) return false;
  row.leaseExpiresAt = store.clock.now() + visibilityTimeoutMs;
  refile(store, row);
  return true;
}

/** Records progress on the held row. False when the claim no longer holds it. */
export function progressRow(
  store: MemoryStore,
  jobId: string,
  claim: ClaimRef,
  progress: JobProgress,
): boolean {
  const row = heldRow(store, jobId, claim.token);
  if (row === undefined) return false;
  row.progress = { current: progress.current, total: progress.total };
  return true;
}
