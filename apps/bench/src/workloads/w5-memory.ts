import { epochNow } from '../clock.js';
import { measureDrainCost } from '../drain-cost.js';
import { JobTally } from '../job-tally.js';
import { assertExactlyOnce, makePayloads, waitDrained } from './drain.js';
import type { Workload } from './workload.js';

/**
 * W5: the memory driver drains `w5Jobs` no-op jobs at concurrency 10: with no I/O at all, this is
 * what the worker, the executor and the driver contract cost per job. Besides the rates it reports
 * the drain's CPU per job (`process.cpuUsage` of the host process, which runs nothing else) and
 * bytes allocated per job (`v8.GCProfiler`): on a loaded machine these move far less than the
 * rates do.
 */
export const w5Memory: Workload = {
  id: 'W5',
  title: 'W5 — memory driver drain',
  metrics: [
    { key: 'bulk', label: 'bulk enqueue', unit: 'jobs/s', better: 'higher' },
    { key: 'drain', label: 'drain (c=10)', unit: 'jobs/s', better: 'higher' },
    { key: 'cpu', label: 'drain CPU per job', unit: 'µs', better: 'lower' },
    { key: 'alloc', label: 'drain allocation per job', unit: 'B', better: 'lower' },
  ],
  appliesTo: (name) => name === 'x-memory',
  async run({ system, settings }) {
    const total = settings.w5Jobs;
    await system.reset();
    const started = epochNow();
    await system.enqueueBulk(makePayloads(0, total));
    const bulk = total / ((epochNow() - started) / 1000);
    const tally = new JobTally(total);
    const cost = measureDrainCost();
    const worker = await system.startWorker({ concurrency: settings.concurrency, onJob: tally.record });
    try {
      const drainedAt = await waitDrained(system, tally, total, settings.drainTimeoutMs);
      const { cpuUsPerJob, bytesPerJob } = cost.stop(total);
      assertExactlyOnce(tally);
      return {
        bulk,
        drain: total / ((drainedAt - tally.firstAt) / 1000),
        cpu: cpuUsPerJob,
        alloc: bytesPerJob,
      };
    } finally {
      await worker.stop();
    }
  },
};
