import type { JobDetail } from '@x/jobs-core';
import type { ModelSide, SequenceNames } from './model-side.js';

/** A row as both drivers must agree on it: everything but the times and tokens a driver stamps. */
function comparableRow(row: JobDetail | null) {
  if (row === null) return null;
  return {
    id: row.id,
    runId: row.runId,
    name: row.name,
    queue: row.queue,
    state: row.state,
    payload: row.payload,
    tenantId: row.tenantId,
    idempotencyKey: row.idempotencyKey,
    priority: row.priority,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    lastError: row.lastError === null ? null : row.lastError.code,
    stopReason: row.stopReason,
    result: row.state === 'done' ? row.result : null,
    progress: row.progress,
    waitingFor: row.waitingFor,
    cancelReason: row.cancelReason,
    steps: row.steps.map((step) => ({
      name: step.name,
      position: step.position,
      status: step.status,
      output: step.output,
    })),
  };
}

/**
 * What a side holds once its sequence ran: every row it wrote (by `introspect.get`), the steps of
 * every run, each queue's counts and pause flag, and each lease key's holders — read through the
 * driver's public members only.
 */
export async function snapshot(side: ModelSide, names: SequenceNames) {
  const d = side.driver;
  const rows = await Promise.all(side.rows.map(async (id) => comparableRow(await d.introspect!.get(id))));
  const runs = await Promise.all(
    [...side.runIds].sort().map(async (runId) => ({
      runId,
      steps: (await d.steps.load(runId)).map((step) => `${step.position}:${step.name}:${step.status}`),
    })),
  );
  const stats = (await d.stats())
    .filter((s) => names.queues.includes(s.queue))
    .map((s) => ({ queue: s.queue, counts: s.counts, paused: s.paused, due: s.oldestReadyAgeMs !== null }))
    .sort((a, b) => (a.queue < b.queue ? -1 : 1));
  const holders = await Promise.all(
    names.leaseKeys.map(async (key) => (await d.leases!.holders(key)).map((grant) => grant.holder).sort()),
  );
  return { rows, runs, stats, holders };
}
