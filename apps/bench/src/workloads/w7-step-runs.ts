import { JobTally } from '../job-tally.js';
import type { SystemName } from '../systems/catalog.js';
import type { Workload } from './workload.js';

/** Durable steps per run and concurrency: the shape (runs: `settings.w7Runs`). */
const STEPS = 10;
const CONCURRENCY = 10;

/** Systems with durable steps worth comparing (x-memory keeps nothing durable). */
const STEP_SYSTEMS: readonly SystemName[] = ['x-pg', 'x-pg-done0', 'x-redis', 'dbos'];

/**
 * W7: durable-step throughput. 1,000 runs of 10 no-op durable steps drained at concurrency 10;
 * steps per second from the first step body to the last run settled. Every step must have run
 * exactly once (a step body counts its id), or the measurement fails.
 */
export const w7StepRuns: Workload = {
  id: 'W7',
  title: 'W7 — durable steps: 1,000 runs × 10 no-op steps at c=10',
  metrics: [
    { key: 'steps', label: 'steps (steps/s)', unit: 'steps/s', better: 'higher' },
    { key: 'missing', label: 'steps never run', unit: 'count', better: 'lower' },
    { key: 'extra', label: 'steps run twice', unit: 'count', better: 'lower' },
  ],
  appliesTo: (name) => STEP_SYSTEMS.includes(name),
  async run({ system, settings }) {
    const runner = system.stepRunner;
    if (!runner) throw new Error(`${system.name} has no step runner`);
    const runs = settings.w7Runs;
    const tally = new JobTally(runs * STEPS);
    const ms = await runner.drainRuns(runs, STEPS, CONCURRENCY, (id) => tally.add(id, 0));
    if (tally.missing > 0 || tally.duplicates > 0) {
      throw new Error(
        `W7: not exactly once: ${tally.missing} steps never ran, ${tally.duplicates} ran again`,
      );
    }
    return { steps: (runs * STEPS * 1000) / ms, missing: tally.missing, extra: tally.duplicates };
  },
};
