import { createWorker, type JobDriver, jsonLinesLogger } from '@x/jobs-core';
import { epochNow } from '../clock.js';
import type { FairProbe, FairRun } from '../system.js';
import { benchTenant, routeBenchJobs } from './x-bench-jobs.js';
import type { XBackend } from './x-system.js';

/** The most tenant rows one `enqueueMany` takes. */
const CHUNK = 10_000;

/**
 * The fair-claiming scenario on one of our backends: a driver of its own whose `bench-fair` queue
 * has the fairness under test, installed as the ambient driver for the run (the handle enqueues
 * through it), then the system's driver again.
 */
export function xFairProbe(
  backend: XBackend,
  systemDriver: () => JobDriver,
  install: (driver: JobDriver) => void,
): FairProbe {
  return {
    async run(fairness, aJobs, bJobs, concurrency, timeoutMs): Promise<FairRun> {
      const emptied = await backend.reset(systemDriver());
      install(emptied);
      const driver = await backend.open({ 'bench-fair': { fairness } });
      install(driver);
      const bWaitsMs: number[] = [];
      let aStarted = 0;
      let aBeforeLastB = 0;
      let allB: () => void = () => undefined;
      const bDone = new Promise<void>((resolve) => {
        allB = resolve;
      });
      routeBenchJobs((payload) => {
        const at = epochNow();
        if ((payload as { tenant?: string }).tenant === 'b') {
          bWaitsMs.push(at - payload.t);
          if (bWaitsMs.length === bJobs) {
            aBeforeLastB = aStarted;
            allB();
          }
        } else {
          aStarted += 1;
        }
      });
      const worker = createWorker({
        driver,
        context: () => ({}),
        queues: ['bench-fair'],
        concurrency,
        handleSignals: false,
        logger: jsonLinesLogger({ minLevel: 'warn' }),
      });
      await worker.start();
      try {
        for (let start = 0; start < aJobs; start += CHUNK) {
          const t = epochNow();
          const count = Math.min(CHUNK, aJobs - start);
          await benchTenant.enqueueMany(
            Array.from({ length: count }, (_, k) => ({ i: start + k, t, tenant: 'a' })),
          );
        }
        const t = epochNow();
        await benchTenant.enqueueMany(
          Array.from({ length: bJobs }, (_, k) => ({ i: aJobs + k, t, tenant: 'b' })),
        );
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          bDone,
          new Promise((_, reject) => {
            timer = setTimeout(() => {
              const ran = `${bWaitsMs.length} of ${bJobs} B jobs and ${aStarted} A jobs ran`;
              reject(new Error(`fair (fairness ${fairness}): ${ran} in ${timeoutMs} ms`));
            }, timeoutMs);
          }),
        ]).finally(() => clearTimeout(timer));
        return { bWaitsMs, aBeforeLastB };
      } finally {
        await worker.stop();
        await driver.close?.();
        install(emptied);
      }
    },
  };
}
