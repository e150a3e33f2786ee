import { epochNow } from '../clock.js';
import { JobTally } from '../job-tally.js';
import { assertExactlyOnce, makePayloads, waitDrained } from './drain.js';
import type { Workload } from './workload.js';

/**
 * W5: the memory driver drains `w5Jobs` no-op jobs at concurrency 10: with no I/O at all, this is
 * what the worker, the executor and the driver contract cost per job.
 */
export const w5Memory: Workload = {
  id: 'W5',
  title: 'W5 — memory driver drain',
  metrics: [
    { key: 'bulk', label: 'bulk enqueue', unit: 'jobs/s', better: 'higher' },
    { key: 'drain', label: 'drain (c=10)', unit: 'jobs/s', better: 'higher' },
  ],
  appliesTo: (name) => name === 'x-memory',
  async run({ system, settings }) {
    const total = settings.w5Jobs;
    await system.reset();
    const started = epochNow();
    await system.enqueueBulk(makePayloads(0, total));
    const bulk = total / ((epochNow() - started) / 1000);
    const tally = new JobTally(total);
    const worker = await system.startWorker({ concurrency: settings.concurrency, onJob: tally.record });
    try {
      const drainedAt = await waitDrained(system, tally, total, settings.drainTimeoutMs);
      assertExactlyOnce(tally);
      return { bulk, drain: total / ((drainedAt - tally.firstAt) / 1000) };
    } finally {
      await worker.stop();
    }
  },
};
