import type { JobIntrospection } from '@x/jobs-core';
import { isLiveState } from '@x/jobs-core';
import { copyJson } from '../json-copy.js';
import { attemptErrorsOf, toJobRecord } from '../memory-rows.js';
import { forgetRow, type MemoryStore, moveTo, notifyDue, refile } from '../memory-store.js';
import { requeue } from '../queue/settle.js';
import { stepsOf } from '../stores/step-store.js';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 1000;

/** Operator reads and writes over the memory store: what the CLI and dashboards call. */
export function memoryIntrospection(store: MemoryStore): JobIntrospection {
  return {
    async list(query = {}) {
      const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_PAGE), MAX_PAGE);
      const after = query.cursor === undefined ? Number.POSITIVE_INFINITY : Number(query.cursor);
      const rows = [...store.jobs.values()]
        .filter(
          (row) =>
            row.seq < after &&
            (query.queue === undefined || row.queue === query.queue) &&
            (query.state === undefined || row.state === query.state) &&
            (query.name === undefined || row.name === query.name) &&
            (query.tenantId === undefined || row.tenantId === query.tenantId),
        )
        .sort((a, b) => b.seq - a.seq);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        jobs: page.map(toJobRecord),
        nextCursor: rows.length > limit && last ? String(last.seq) : null,
      };
    },

    async get(id) {
      const row = store.jobs.get(id);
      return row === undefined
        ? null
        : { ...toJobRecord(row), steps: stepsOf(store, row.runId), errors: attemptErrorsOf(row) };
    },

    async retry(id, options = {}) {
      const row = store.jobs.get(id);
      if (row === undefined || isLiveState(row.state)) return false;
      if (store.liveKeys.has(row.scope)) return false;
      if (options.fromStep !== undefined) {
        const run = store.steps.get(row.runId);
        const from = run?.get(options.fromStep);
        if (run === undefined || from === undefined) return false;
        for (const step of [...run.values()]) if (step.position >= from.position) run.delete(step.name);
      }
      row.attempts = 0;
      row.finishedAt = null;
      row.stopReason = null;
      row.cancelReason = null;
      row.result = null;
      requeue(store, row, store.clock.now(), store.clock.now());
      return true;
    },

    async cancel(id, reason) {
      const row = store.jobs.get(id);
      if (row === undefined || !isLiveState(row.state)) return false;
      row.token = null;
      row.leaseExpiresAt = null;
      row.cancelReason = reason ?? null;
      row.finishedAt = store.clock.now();
      moveTo(store, row, 'cancelled');
      return true;
    },

    async remove(id) {
      const row = store.jobs.get(id);
      if (row === undefined || row.state === 'running') return false;
      forgetRow(store, row);
      return true;
    },

    async promote(id) {
      const row = store.jobs.get(id);
      if (row === undefined || (row.state !== 'delayed' && row.state !== 'suspended')) return false;
      row.runAt = store.clock.now();
      if (row.state === 'delayed') moveTo(store, row, 'ready');
      else refile(store, row);
      notifyDue(store, row.queue);
      return true;
    },

    async pause(queue) {
      store.pausedQueues.add(queue);
    },

    async resume(queue) {
      if (store.pausedQueues.delete(queue)) notifyDue(store, queue);
    },

    async pausedQueues() {
      return [...store.pausedQueues].sort();
    },

    async resolveStep(jobId, stepName, resolution) {
      const row = store.jobs.get(jobId);
      const run = row === undefined ? undefined : store.steps.get(row.runId);
      const step = run?.get(stepName);
      if (run === undefined || step === undefined || step.status !== 'started') return false;
      if (resolution.ran) {
        const output = copyJson(resolution.output);
        run.set(stepName, {
          ...step,
          status: 'completed',
          output,
          error: null,
          completedAt: store.clock.now(),
        });
      } else {
        run.delete(stepName);
      }
      return true;
    },

    async reportWorker(info, ttlMs) {
      store.workers.set(info.id, {
        info: { ...info, queues: [...info.queues] },
        expiresAt: info.lastSeenAt + ttlMs,
      });
    },

    async removeWorker(id) {
      store.workers.delete(id);
    },

    async workers() {
      const now = store.clock.now();
      return [...store.workers.values()]
        .filter((worker) => worker.expiresAt > now)
        .map((worker) => ({ ...worker.info, queues: [...worker.info.queues] }))
        .sort((a, b) => (a.id < b.id ? -1 : 1));
    },

    async purge({ doneBefore }) {
      const finished = [...store.jobs.values()].filter(
        (row) => row.state === 'done' && row.finishedAt !== null && row.finishedAt < doneBefore,
      );
      for (const row of finished) forgetRow(store, row);
      return finished.length;
    },
  };
}
