import { epochNow, sleep } from '../clock.js';
import { JobTally } from '../job-tally.js';
import { measurePgCost } from '../pg-cost.js';
import { makePayloads, waitDrained } from './drain.js';
import type { Workload } from './workload.js';

/**
 * W1: enqueue `w1Bulk` no-op jobs in bulk and `w1Single` one at a time (each awaited), then drain
 * them all at concurrency 10. Drain time runs from the first handler start to the moment the
 * system reports nothing pending; every id is counted, so a lost or doubled job shows.
 *
 * The whole measurement (both enqueues and the drain) is also costed per job: the host process's
 * CPU, and for a Postgres system the server's counters of its database (WAL, commits, tuples,
 * statements: see `pg-cost.ts`).
 */
export const w1Throughput: Workload = {
  id: 'W1',
  title: 'W1 — enqueue and drain throughput',
  metrics: [
    { key: 'bulk', label: 'bulk enqueue', unit: 'jobs/s', better: 'higher' },
    { key: 'single', label: 'one-at-a-time enqueue', unit: 'jobs/s', better: 'higher' },
    { key: 'drain', label: 'drain (c=10)', unit: 'jobs/s', better: 'higher' },
    { key: 'missing', label: 'never ran', unit: 'jobs', better: 'lower' },
    { key: 'extra', label: 'ran twice', unit: 'jobs', better: 'lower' },
    { key: 'cpuUs', label: 'client CPU per job', unit: 'µs', better: 'lower' },
    { key: 'walBytes', label: 'WAL per job', unit: 'B', better: 'lower' },
    { key: 'commits', label: 'commits', unit: 'per job', better: 'lower' },
    { key: 'tuples', label: 'tuples written', unit: 'per job', better: 'lower' },
    { key: 'hot', label: 'of them HOT updates', unit: 'per job', better: 'lower' },
    { key: 'statements', label: 'statements', unit: 'per job', better: 'lower' },
  ],
  appliesTo: () => true,
  async run({ system, settings }) {
    const { w1Bulk: bulk, w1Single: single } = settings;
    await system.reset();
    const total = bulk + single;
    const cost = system.database === undefined ? null : await measurePgCost(system.database);
    const cpuBefore = process.cpuUsage();

    const bulkPayloads = makePayloads(0, bulk);
    let started = epochNow();
    await system.enqueueBulk(bulkPayloads);
    const bulkRate = bulk / ((epochNow() - started) / 1000);

    started = epochNow();
    for (let k = 0; k < single; k += 1) await system.enqueueOne({ i: bulk + k, t: epochNow() });
    const singleRate = single / ((epochNow() - started) / 1000);

    const tally = new JobTally(total);
    const worker = await system.startWorker({ concurrency: settings.concurrency, onJob: tally.record });
    let drainRate: number;
    try {
      const drainedAt = await waitDrained(system, tally, total, settings.drainTimeoutMs);
      drainRate = total / ((drainedAt - tally.firstAt) / 1000);
      // A short grace period: a redelivery right after the drain would still show as an extra run.
      await sleep(100);
    } finally {
      await worker.stop();
    }
    const cpu = process.cpuUsage(cpuBefore);
    const perJob = await cost?.stop(total);
    return {
      bulk: bulkRate,
      single: singleRate,
      drain: drainRate,
      missing: tally.missing,
      extra: tally.duplicates,
      cpuUs: (cpu.user + cpu.system) / total,
      ...(perJob
        ? {
            walBytes: perJob.walBytesPerJob,
            commits: perJob.commitsPerJob,
            tuples: perJob.tuplesPerJob,
            hot: perJob.hotUpdatesPerJob,
            ...(perJob.statementsPerJob === undefined ? {} : { statements: perJob.statementsPerJob }),
          }
        : {}),
    };
  },
};
