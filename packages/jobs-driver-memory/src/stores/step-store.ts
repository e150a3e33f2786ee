import type { StepRecord } from '@x/jobs-core';
import type { StepStore } from '@x/jobs-core/driver';
import { copyJson } from '../json-copy.js';
import { heldRow, type MemoryStore } from '../memory-store.js';

/** A detached copy of a step record. */
function copyStep(step: StepRecord): StepRecord {
  return { ...step, output: copyJson(step.output), error: step.error === null ? null : { ...step.error } };
}

/** The steps of `runId`, ordered by position. */
export function stepsOf(store: MemoryStore, runId: string): StepRecord[] {
  const run = store.steps.get(runId);
  return run === undefined ? [] : [...run.values()].sort((a, b) => a.position - b.position).map(copyStep);
}

/** Step records keyed by run id; every write is fenced on the job's claim. */
export function createStepStore(store: MemoryStore): StepStore {
  return {
    async load(runId) {
      return stepsOf(store, runId);
    },
    async save(fence, step) {
      if (heldRow(store, fence.jobId, fence.claim.token) === undefined) return false;
      let run = store.steps.get(fence.runId);
      if (run === undefined) {
        run = new Map();
        store.steps.set(fence.runId, run);
      }
      const prior = run.get(step.name);
      const next = copyStep(step);
      run.set(
        step.name,
        prior === undefined ? next : { ...next, position: prior.position, startedAt: prior.startedAt },
      );
      return true;
    },
  };
}
