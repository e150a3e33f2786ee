import type { EnqueueRequest, EnqueueResult } from '@x/jobs-core/driver';
import { memoryError } from '../errors.js';
import { toJsonText } from '../json-copy.js';
import type { MemoryJobRow } from '../memory-job-row.js';
import { addRow, dedupeScope, type MemoryStore, moveTo, nextSeq, notifyDue } from '../memory-store.js';

/**
 * Writes one row unless its id already exists (a republish: answered as a dedupe) or a live row
 * holds its scope (a dedupe, or `X_JOB_DUPLICATE` under `onConflict: 'error'`).
 * (Default `onConflict`: the request's own)
 */
export function enqueueRow(
  store: MemoryStore,
  request: EnqueueRequest,
  onConflict = request.onConflict,
): EnqueueResult {
  const existing = store.jobs.get(request.id);
  if (existing !== undefined) return { id: existing.id, runId: existing.runId, deduped: true };

  const scope = dedupeScope(request);
  const liveId = store.liveKeys.get(scope);
  const live = liveId === undefined ? undefined : store.jobs.get(liveId);
  if (live !== undefined) {
    if (onConflict === 'error') {
      throw memoryError(
        'X_JOB_DUPLICATE',
        `A live '${request.name}' row already holds this idempotency key.`,
        {
          name: request.name,
          liveId: live.id,
        },
      );
    }
    return { id: live.id, runId: live.runId, deduped: true };
  }

  const now = store.clock.now();
  const runAt = request.runAt ?? now;
  const row: MemoryJobRow = {
    id: request.id,
    runId: request.runId,
    name: request.name,
    queue: request.queue,
    state: 'ready',
    payloadJson: toJsonText(request.payload),
    tenantId: request.tenantId,
    idempotencyKey: request.idempotencyKey,
    priority: request.priority,
    attempts: 0,
    maxAttempts: request.maxAttempts,
    enqueuedAt: now,
    runAt,
    startedAt: null,
    finishedAt: null,
    leaseExpiresAt: null,
    workerId: null,
    lastError: null,
    errors: null,
    stopReason: null,
    result: null,
    progress: null,
    waitingFor: null,
    cancelReason: null,
    enqueuedBy: request.enqueuedBy ?? null,
    traceparent: request.traceparent ?? null,
    token: null,
    seq: nextSeq(store),
    scope,
    indexSlot: null,
    startSeq: 0,
  };
  addRow(store, row);
  moveTo(store, row, runAt > now ? 'delayed' : 'ready');
  if (row.state === 'ready') notifyDue(store, row.queue);
  return { id: row.id, runId: row.runId, deduped: false };
}
