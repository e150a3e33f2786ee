import type { StepRecord } from '@x/jobs-core';
import type { StepFence, StepStore } from '@x/jobs-core/driver';
import { callClient, callScript, type DriverContext } from '../driver-context.js';
import { STEP_SAVE_SCRIPT } from '../lua/step-save.lua.js';
import { decodeSteps, encodeStepBody } from '../step-codec.js';

/** Step persistence in one hash per run (`steps:<runId>`), every write fenced on the job's claim. */
export function createStepStore(context: DriverContext): StepStore {
  return {
    async load(runId: string): Promise<readonly StepRecord[]> {
      const values = await callClient(context, 'steps.load', (client) =>
        client.hvals(context.keys.steps(runId)),
      );
      return decodeSteps(values);
    },
    async save(fence: StepFence, step: StepRecord): Promise<boolean> {
      const reply = await callScript(
        context,
        'steps.save',
        STEP_SAVE_SCRIPT,
        [
          fence.jobId,
          fence.claim.token,
          step.name,
          step.position,
          step.startedAt,
          step.status,
          step.completedAt === null ? '' : step.completedAt,
          encodeStepBody(step),
        ],
        { steps: context.keys.steps(fence.runId) },
      );
      return reply === 1;
    },
  };
}
