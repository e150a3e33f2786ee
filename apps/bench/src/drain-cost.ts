import { GCProfiler, getHeapStatistics } from 'node:v8';

/** What a drain cost this process: CPU and heap allocation per job, and the GC pauses. */
export interface DrainCost {
  /** `process.cpuUsage` (user + system) per job, µs. */
  readonly cpuUsPerJob: number;
  /** Bytes allocated per job: what the collections freed plus the heap's growth. */
  readonly bytesPerJob: number;
  /** GC pause time, ms. */
  readonly gcPauseMs: number;
}

/**
 * Starts measuring what this process spends from now on: CPU (`process.cpuUsage`) and heap
 * allocation (`v8.GCProfiler`: every collection's freed bytes plus the heap's growth, so objects
 * that died young count too). `stop(jobs)` ends the measurement and answers it per job.
 */
export function measureDrainCost(): { stop(jobs: number): DrainCost } {
  const profiler = new GCProfiler();
  const heapBefore = getHeapStatistics().used_heap_size;
  const cpuBefore = process.cpuUsage();
  profiler.start();
  return {
    stop(jobs) {
      const gc = profiler.stop();
      const cpu = process.cpuUsage(cpuBefore);
      let freed = 0;
      let pausedUs = 0;
      for (const entry of gc?.statistics ?? []) {
        freed += entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize;
        pausedUs += entry.cost;
      }
      const allocated = freed + getHeapStatistics().used_heap_size - heapBefore;
      return {
        cpuUsPerJob: (cpu.user + cpu.system) / jobs,
        bytesPerJob: allocated / jobs,
        gcPauseMs: pausedUs / 1000,
      };
    },
  };
}
