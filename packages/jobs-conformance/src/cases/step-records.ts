import type { StepRecord } from '@x/jobs-core';
import type { ClaimedJob } from '@x/jobs-core/driver';
import { expect } from 'vitest';
import type { DriverHarness } from '../driver-harness.js';

/** A step record at `position`, started at `at`. */
export function stepRecord(
  name: string,
  position: number,
  at: number,
  patch: Partial<StepRecord> = {},
): StepRecord {
  return {
    name,
    position,
    status: 'completed',
    output: { name },
    error: null,
    startedAt: at,
    completedAt: at,
    ...patch,
  };
}

/** Saves `step` under the job's claim, asserting it landed. */
export async function saveStep(h: DriverHarness, job: ClaimedJob, step: StepRecord): Promise<void> {
  expect(
    await h.driver.steps.save({ jobId: job.id, runId: job.runId, claim: job.claim }, step),
    step.name,
  ).toBe(true);
}
