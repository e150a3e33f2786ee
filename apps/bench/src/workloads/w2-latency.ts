import { epochNow, sleep } from '../clock.js';
import { JobTally } from '../job-tally.js';
import { percentile } from '../stats.js';
import type { BenchPayload } from '../system.js';
import type { Workload } from './workload.js';

/** Jobs enqueued before measuring, so connections, prepared statements and JIT are warm. */
const WARM_UP_JOBS = 10;

/**
 * W2: an idle worker (concurrency 10), then `w2Jobs` jobs enqueued one at a time `w2IntervalMs`
 * apart. Latency is handler start minus the time taken just before the enqueue call: the enqueue
 * round trip, the wake (notify, blocking pop or poll) and the claim.
 */
export const w2Latency: Workload = {
  id: 'W2',
  title: 'W2 — enqueue → handler-start latency, idle worker',
  metrics: [
    { key: 'p50', label: 'p50', unit: 'ms', better: 'lower' },
    { key: 'p95', label: 'p95', unit: 'ms', better: 'lower' },
    { key: 'p99', label: 'p99', unit: 'ms', better: 'lower' },
    { key: 'max', label: 'max', unit: 'ms', better: 'lower' },
  ],
  appliesTo: () => true,
  async run({ system, settings }) {
    const jobs = settings.w2Jobs;
    await system.reset();
    const latencies: number[] = [];
    const tally = new JobTally(WARM_UP_JOBS + jobs);
    const onJob = (payload: BenchPayload): void => {
      const at = epochNow();
      if (payload.i >= WARM_UP_JOBS) latencies.push(at - payload.t);
      tally.add(payload.i, at);
    };
    const worker = await system.startWorker({ concurrency: settings.concurrency, onJob });
    try {
      await sleep(300);
      for (let k = 0; k < WARM_UP_JOBS; k += 1) {
        await system.enqueueOne({ i: k, t: epochNow() });
        await sleep(settings.w2IntervalMs);
      }
      await tally.reached(WARM_UP_JOBS, 30_000);
      // Let every poll-based system fall idle again before the measured series.
      await sleep(1_000);
      const start = epochNow();
      for (let k = 0; k < jobs; k += 1) {
        await system.enqueueOne({ i: WARM_UP_JOBS + k, t: epochNow() });
        const next = start + (k + 1) * settings.w2IntervalMs;
        const wait = next - epochNow();
        if (wait > 0) await sleep(wait);
      }
      await tally.reached(WARM_UP_JOBS + jobs, 30_000);
      return {
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        max: percentile(latencies, 100),
      };
    } finally {
      await worker.stop();
    }
  },
};
