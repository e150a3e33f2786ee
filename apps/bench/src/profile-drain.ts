import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { measureDrainCost } from './drain-cost.js';
import { JobTally } from './job-tally.js';
import { isSystemName, loadSystem } from './systems/catalog.js';
import { makePayloads, waitDrained } from './workloads/drain.js';

/**
 * Starts the inspector's CPU profiler (`BENCH_DRAIN_CPU_PROFILE=<file>`) and the sampling heap
 * profiler (`BENCH_DRAIN_HEAP_PROFILE=<file>`, counting objects the GC already collected) for the
 * drain window only; answers the function that stops them and writes the files.
 */
async function startDrainProfiles(): Promise<() => Promise<void>> {
  const cpuFile = process.env.BENCH_DRAIN_CPU_PROFILE;
  const heapFile = process.env.BENCH_DRAIN_HEAP_PROFILE;
  if (!cpuFile && !heapFile) return async () => {};
  const session = new Session();
  session.connect();
  if (cpuFile) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  if (heapFile) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  return async () => {
    if (cpuFile) writeFileSync(cpuFile, JSON.stringify((await session.post('Profiler.stop')).profile));
    if (heapFile) {
      writeFileSync(heapFile, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile));
    }
    session.disconnect();
  };
}

/**
 * One in-process drain of one system, nothing else: the entry to run under `node --cpu-prof`
 * (see README, Profiling). `profile-drain.ts <system> [jobs=20000] [concurrency=10]`. Also prints
 * the drain's CPU per job (`process.cpuUsage`) and bytes allocated per job (what the garbage
 * collections freed plus the heap's growth, from `v8.GCProfiler`), and the share of GC pauses.
 * `BENCH_DRAIN_CPU_PROFILE` / `BENCH_DRAIN_HEAP_PROFILE` name files for a CPU profile and a
 * sampling heap profile of the drain alone (setup and enqueue excluded).
 */
async function main(): Promise<void> {
  const [name = '', jobsArg = '20000', concurrencyArg = '10'] = process.argv.slice(2);
  if (!isSystemName(name)) throw new Error(`usage: profile-drain.ts <system> [jobs] [concurrency]`);
  const total = Number(jobsArg);
  const system = await loadSystem(name);
  await system.setup();
  await system.reset();
  await system.enqueueBulk(makePayloads(0, total));
  const tally = new JobTally(total);
  const stopProfiles = await startDrainProfiles();
  const wallBefore = performance.now();
  const cost = measureDrainCost();
  const worker = await system.startWorker({ concurrency: Number(concurrencyArg), onJob: tally.record });
  const drainedAt = await waitDrained(system, tally, total, 300_000);
  const { cpuUsPerJob, bytesPerJob, gcPauseMs } = cost.stop(total);
  const wallMs = performance.now() - wallBefore;
  await stopProfiles();
  console.log(
    `${name}: drained ${total} jobs at ${Math.round(total / ((drainedAt - tally.firstAt) / 1000))} jobs/s; ` +
      `${cpuUsPerJob.toFixed(1)} µs CPU/job, ${Math.round(bytesPerJob)} B allocated/job, ` +
      `GC ${((gcPauseMs / wallMs) * 100).toFixed(0)} % of the drain`,
  );
  await worker.stop();
  await system.close();
}

await main();
