import { OUR_SYSTEMS } from '../systems/catalog.js';
import type { Workload } from './workload.js';

/** Jobs per drain, and steps per job, of the step-cost measurement. */
const STEP_JOBS = 200;
const STEPS_PER_JOB = 10;
/** Completed steps the replay measurement replays. */
const REPLAY_STEPS = 1_000;

/**
 * W4 (ours only): what durable steps cost. Per step: drain 200 jobs of 10 steps and 200 jobs of
 * none at concurrency 10; the difference divided by the 2,000 steps. Replay: a run with 1,000
 * completed steps that suspended, timed over the attempt that replays them all and completes.
 */
export const w4Steps: Workload = {
  id: 'W4',
  title: 'W4 — durable steps: cost per step, replay of 1,000 completed steps',
  metrics: [
    { key: 'perStep', label: 'cost per step (c=10 drain)', unit: 'µs', better: 'lower' },
    { key: 'firstRunPerStep', label: 'first run, per step (one job)', unit: 'µs', better: 'lower' },
    { key: 'replay', label: 'replay 1,000 steps', unit: 'ms', better: 'lower' },
  ],
  appliesTo: (name) => OUR_SYSTEMS.includes(name),
  async run({ system, settings }) {
    const probe = system.stepProbe;
    if (!probe) throw new Error(`${system.name} has no step probe`);
    const none = await probe.drainStepJobs(STEP_JOBS, 0, settings.concurrency);
    const ten = await probe.drainStepJobs(STEP_JOBS, STEPS_PER_JOB, settings.concurrency);
    const { firstRunMs, replayMs } = await probe.replay(REPLAY_STEPS);
    return {
      perStep: ((ten - none) * 1000) / (STEP_JOBS * STEPS_PER_JOB),
      firstRunPerStep: (firstRunMs * 1000) / REPLAY_STEPS,
      replay: replayMs,
    };
  },
};
