import { epochNow } from '../clock.js';
import { JobTally } from '../job-tally.js';
import type { BenchSystem, StepRunner } from '../system.js';
import { waitDrained } from '../workloads/drain.js';
import { benchStepRun, routeStepRuns } from './x-bench-jobs.js';

/**
 * W7 through the public API: `runs` jobs of `steps` `step.run`s enqueued with `enqueueMany`,
 * drained by the system's own `createWorker`. The clock runs from the first step body to the
 * moment every run settled (its ack landed).
 */
export function xStepRunner(system: BenchSystem): StepRunner {
  return {
    async drainRuns(runs, steps, concurrency, onStep) {
      await system.reset();
      await benchStepRun.enqueueMany(Array.from({ length: runs }, (_, i) => ({ i, steps })));
      // One tally entry per run, recorded by its last step: `waitDrained` waits for all of them.
      const finished = new JobTally(runs);
      let firstAt = Number.NaN;
      routeStepRuns((id) => {
        if (Number.isNaN(firstAt)) firstAt = epochNow();
        onStep(id);
        if (id % steps === steps - 1) finished.add(Math.floor(id / steps), epochNow());
      });
      const worker = await system.startWorker({ concurrency, onJob: () => {} });
      try {
        const drainedAt = await waitDrained(system, finished, runs, 300_000);
        return drainedAt - firstAt;
      } finally {
        await worker.stop();
        routeStepRuns(() => {});
      }
    },
  };
}
