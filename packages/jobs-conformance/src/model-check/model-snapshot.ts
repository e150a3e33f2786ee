import type { JobDetail } from '@x/jobs-core';
import type { ModelSide, SequenceNames } from './model-side.js';

/**
 * Whether `row` is due at `now`: ready, a delayed or suspended row past its `runAt`, or a running
 * row whose lease lapsed. Drivers may move due rows to `ready` lazily (Redis does as a claim walks
 * its queues), so the check compares "due" rather than which of those states a driver reports.
 */
function isDue(row: JobDetail, now: number): boolean {
  if (row.state === 'ready') return true;
  if (row.state === 'delayed' || row.state === 'suspended') return row.runAt <= now;
  return row.state === 'running' && (row.leaseExpiresAt === null || row.leaseExpiresAt <= now);
}

/** A row as both drivers must agree on it: everything but the times and tokens a driver stamps. */
function comparableRow(row: JobDetail | null, now: number) {
  if (row === null) return null;
  const due = isDue(row, now);
  return {
    id: row.id,
    runId: row.runId,
    name: row.name,
    queue: row.queue,
    state: due ? 'due' : row.state,
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
    waitingFor: due ? null : row.waitingFor,
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
 * What a side holds once its sequence ran: every row it wrote (by `introspect.get`; due rows as
 * `'due'`), the steps of every run, each queue's live and terminal counts and pause flag, and each
 * lease key's holders — read through the driver's public members only.
 */
export async function snapshot(side: ModelSide, names: SequenceNames) {
  const d = side.driver;
  const now = d.now();
  const rows = await Promise.all(
    side.rows.map(async (id) => comparableRow(await d.introspect!.get(id), now)),
  );
  const runs = await Promise.all(
    [...side.runIds].sort().map(async (runId) => ({
      runId,
      steps: (await d.steps.load(runId)).map((step) => `${step.position}:${step.name}:${step.status}`),
    })),
  );
  const stats = (await d.stats())
    .filter((s) => names.queues.includes(s.queue))
    .map((s) => ({
      queue: s.queue,
      live: s.counts.ready + s.counts.delayed + s.counts.suspended + s.counts.running,
      done: s.counts.done,
      dead: s.counts.dead,
      cancelled: s.counts.cancelled,
      paused: s.paused,
    }))
    .sort((a, b) => (a.queue < b.queue ? -1 : 1));
  const holders = await Promise.all(
    names.leaseKeys.map(async (key) => (await d.leases!.holders(key)).map((grant) => grant.holder).sort()),
  );
  return { rows, runs, stats, holders };
}
