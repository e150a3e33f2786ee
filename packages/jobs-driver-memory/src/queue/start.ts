import type { ClaimRef } from '@x/jobs-core/driver';
import { belowCap, heldRow, type MemoryStore, markStarted, refile } from '../memory-store.js';

/**
 * Counts one attempt on the held row and extends its lease, once per claim: the claim set
 * `startedAt` to null and this sets it, so a second start (or one after the claim lost the row)
 * answers false — as does the start of a row whose attempts reached `maxAttempts` (never counted
 * past the cap).
 */
export function startRow(
  store: MemoryStore,
  jobId: string,
  claim: ClaimRef,
  visibilityTimeoutMs: number,
): boolean {
  const row = heldRow(store, jobId, claim.token);
  if (row === undefined || row.startedAt !== null || !belowCap(row)) return false;
  const now = store.clock.now();
  markStarted(store, row, now);
  row.leaseExpiresAt = now + visibilityTimeoutMs;
  refile(store, row);
  return true;
}
