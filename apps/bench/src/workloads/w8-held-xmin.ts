import { epochNow, sleep } from '../clock.js';
import { type HotTableReading, holdXmin, readHotTables } from '../pg-hot-tables.js';
import type { BenchSystem } from '../system.js';
import { makePayloads } from './drain.js';
import type { Workload } from './workload.js';

/** Jobs a producer enqueues per call, and the backlog (enqueued, not yet started) it keeps. */
const BATCH = 500;
const BACKLOG = 5_000;

/** What one window of steady load measured. */
interface Window {
  readonly rate: number;
  readonly jobs: number;
  readonly tables: HotTableReading;
}

/**
 * One window: a producer keeps {@link BACKLOG} jobs waiting (bulk enqueues of {@link BATCH}) while
 * the running worker takes them, for `seconds`; answers the jobs started per second and the hot
 * tables right after (read while any held transaction still holds).
 */
async function steadyWindow(
  system: BenchSystem,
  database: string,
  hotTables: readonly string[],
  seconds: number,
  counter: { produced: number; started: number },
): Promise<Window> {
  const startedBefore = counter.started;
  const begin = epochNow();
  const end = begin + seconds * 1000;
  while (epochNow() < end) {
    if (counter.produced - counter.started < BACKLOG) {
      await system.enqueueBulk(makePayloads(counter.produced, BATCH));
      counter.produced += BATCH;
    } else {
      await sleep(2);
    }
  }
  const jobs = counter.started - startedBefore;
  const rate = jobs / ((epochNow() - begin) / 1000);
  return { rate, jobs, tables: await readHotTables(database, hotTables) };
}

/**
 * W8: steady producers and workers for `w8Seconds` with no other transaction open, then for
 * `w8Seconds` more while another connection to the system's database holds a transaction open and
 * idle (its snapshot and transaction id pin the xmin horizon: vacuum removes no row version
 * deleted since). Reports both throughputs, the share kept, and the hot tables' dead tuples and
 * size after each window. The queue is never empty: a producer keeps 5,000 jobs waiting.
 */
export const w8HeldXmin: Workload = {
  id: 'W8',
  title: 'W8 — steady load while another transaction holds the xmin horizon',
  metrics: [
    { key: 'free', label: 'throughput, nothing held', unit: 'jobs/s', better: 'higher' },
    { key: 'held', label: 'throughput, xmin held', unit: 'jobs/s', better: 'higher' },
    { key: 'kept', label: 'held ÷ nothing held', unit: '%', better: 'higher' },
    { key: 'deadFree', label: 'hot dead tuples, nothing held', unit: 'count', better: 'lower' },
    { key: 'deadHeld', label: 'hot dead tuples, xmin held', unit: 'count', better: 'lower' },
    { key: 'jobsHeld', label: 'jobs run while held', unit: 'jobs', better: 'higher' },
    { key: 'mbHeld', label: 'hot tables after held', unit: 'MB', better: 'lower' },
  ],
  appliesTo: (name) => name === 'x-pg' || name === 'graphile-worker' || name === 'pg-boss',
  async run({ system, settings }) {
    const { database, hotTables } = system;
    if (database === undefined || hotTables === undefined) throw new Error('W8: a Postgres system only');
    await system.reset();
    const counter = { produced: 0, started: 0 };
    const worker = await system.startWorker({
      concurrency: settings.concurrency,
      onJob: () => {
        counter.started += 1;
      },
    });
    try {
      const free = await steadyWindow(system, database, hotTables, settings.w8Seconds, counter);
      const holder = await holdXmin(database);
      let held: Window;
      try {
        held = await steadyWindow(system, database, hotTables, settings.w8Seconds, counter);
      } finally {
        await holder.release();
      }
      return {
        free: free.rate,
        held: held.rate,
        kept: (100 * held.rate) / free.rate,
        deadFree: free.tables.deadTuples,
        deadHeld: held.tables.deadTuples,
        jobsHeld: held.jobs,
        mbHeld: held.tables.bytes / 1e6,
      };
    } finally {
      await worker.stop();
    }
  },
};
