import { WorkerProcessHandle } from '../host/worker-process-handle.js';
import { JobTally } from '../job-tally.js';
import { assertExactlyOnce, makePayloads, waitDrained } from './drain.js';
import type { Workload, WorkloadContext } from './workload.js';

/** Drains `w3Jobs` in this process at `concurrency`; answers jobs/s. */
async function drainInProcess({ system, settings }: WorkloadContext, concurrency: number): Promise<number> {
  const total = settings.w3Jobs;
  await system.reset();
  await system.enqueueBulk(makePayloads(0, total));
  const tally = new JobTally(total);
  const worker = await system.startWorker({ concurrency, onJob: tally.record });
  try {
    const drainedAt = await waitDrained(system, tally, total, settings.drainTimeoutMs);
    assertExactlyOnce(tally);
    return total / ((drainedAt - tally.firstAt) / 1000);
  } finally {
    await worker.stop();
  }
}

/**
 * Drains `w3Jobs` with `w3Processes` forked worker processes at `concurrency` each. The jobs are
 * enqueued first and the processes set up, then all are told to start at once; the clock runs
 * from the first job any of them starts.
 */
async function drainInProcesses({ name, system, settings }: WorkloadContext): Promise<number> {
  const total = settings.w3Jobs;
  await system.reset();
  await system.enqueueBulk(makePayloads(0, total));
  const tally = new JobTally(total);
  // Stamped with the process's own time of its latest start in the batch (one machine, one clock).
  const onIds = (ids: readonly number[], lastAt: number): void => {
    for (const id of ids) tally.add(id, lastAt);
  };
  const workers = await Promise.all(
    Array.from({ length: settings.w3Processes }, () =>
      WorkerProcessHandle.spawn({ system: name, concurrency: settings.concurrency, onIds }),
    ),
  );
  try {
    for (const worker of workers) worker.go();
    const drainedAt = await waitDrained(system, tally, total, settings.drainTimeoutMs, {
      reportedLate: true,
    });
    assertExactlyOnce(tally);
    const firstAt = Math.min(...workers.map((worker) => worker.firstAt));
    if (!(drainedAt - firstAt >= 1)) throw new Error(`drained within a millisecond: too few jobs to time`);
    return total / ((drainedAt - firstAt) / 1000);
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

/** W3: the same drain at several concurrencies in one process, and split over worker processes. */
export function w3Concurrency(
  concurrencies: readonly number[],
  processes: number,
  perProcess: number,
): Workload {
  return {
    id: 'W3',
    title: 'W3 — drain throughput by concurrency and processes',
    metrics: [
      ...concurrencies.map((c) => ({
        key: `c${c}`,
        label: `c=${c}`,
        unit: 'jobs/s' as const,
        better: 'higher' as const,
      })),
      { key: 'procs', label: `${processes} processes × c=${perProcess}`, unit: 'jobs/s', better: 'higher' },
    ],
    appliesTo: (name) => name !== 'x-memory',
    async run(context) {
      const values: Record<string, number> = {};
      for (const c of context.settings.w3Concurrencies) values[`c${c}`] = await drainInProcess(context, c);
      values.procs = await drainInProcesses(context);
      return values;
    },
  };
}
