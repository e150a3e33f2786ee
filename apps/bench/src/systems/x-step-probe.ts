import { executeJob, type JobDriver, jobRegistry, jsonLinesLogger } from '@x/jobs-core';
import { epochNow, sleep } from '../clock.js';
import { JobTally } from '../job-tally.js';
import type { BenchSystem, StepProbe } from '../system.js';
import { waitDrained } from '../workloads/drain.js';
import { benchReplay, benchSteps } from './x-bench-jobs.js';

const LEASE_MS = 60_000;
const logger = jsonLinesLogger({ minLevel: 'warn' });

/** Claims the one due job and runs it through `executeJob`; answers its outcome and milliseconds. */
async function executeNext(driver: JobDriver, queue: string): Promise<{ outcome: string; ms: number }> {
  const [claimed] = await driver.claim({
    queues: [queue],
    limit: 1,
    workerId: 'bench-w4',
    visibilityTimeoutMs: LEASE_MS,
  });
  if (!claimed) throw new Error('W4: no job was due');
  const startedAt = epochNow();
  const result = await executeJob({
    driver,
    job: claimed,
    registry: jobRegistry(),
    context: () => ({}),
    visibilityTimeoutMs: LEASE_MS,
    logger,
  });
  return { outcome: result.outcome, ms: epochNow() - startedAt };
}

/**
 * W4 through the public API: step jobs drained by `createWorker` (via the system's own worker),
 * and the replay timed around `executeJob`, the worker's one execution path, so the time covers
 * loading the steps, replaying them and settling the row.
 */
export function xStepProbe(system: BenchSystem, driver: () => JobDriver): StepProbe {
  return {
    async drainStepJobs(jobs, steps, concurrency) {
      await system.reset();
      const t = epochNow();
      await benchSteps.enqueueMany(Array.from({ length: jobs }, (_, i) => ({ i, t, steps })));
      const tally = new JobTally(jobs);
      const startedAt = epochNow();
      const worker = await system.startWorker({ concurrency, onJob: tally.record });
      try {
        const drainedAt = await waitDrained(system, tally, jobs, 300_000);
        if (tally.missing > 0) throw new Error(`W4: ${tally.missing} step jobs never finished`);
        return drainedAt - startedAt;
      } finally {
        await worker.stop();
      }
    },
    async replay(steps) {
      await system.reset();
      await benchReplay.enqueue({ steps });
      const queue = benchReplay.describe().queue;
      const first = await executeNext(driver(), queue);
      if (first.outcome !== 'suspended')
        throw new Error(`W4: first attempt ended ${first.outcome}, not suspended`);
      await sleep(10);
      const second = await executeNext(driver(), queue);
      if (second.outcome !== 'completed') throw new Error(`W4: replaying attempt ended ${second.outcome}`);
      return { firstRunMs: first.ms, replayMs: second.ms };
    },
  };
}
