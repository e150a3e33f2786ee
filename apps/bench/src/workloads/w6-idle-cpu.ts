import { sleep } from '../clock.js';
import type { Workload } from './workload.js';

/**
 * W6: a started worker with nothing to do, CPU time of its whole process (user + system, from
 * `process.cpuUsage`) over `w6Seconds`, as a percentage of one core. Its polls, heartbeats and
 * timers are what it costs a fleet to keep idle workers around. Systems measure side by side.
 */
export const w6IdleCpu: Workload = {
  id: 'W6',
  title: 'W6 — idle worker CPU',
  metrics: [{ key: 'cpu', label: 'CPU of one core', unit: '% core', better: 'lower' }],
  appliesTo: () => true,
  concurrentAcrossSystems: true,
  async run({ system, settings }) {
    await system.reset();
    const worker = await system.startWorker({ concurrency: settings.concurrency, onJob: () => {} });
    try {
      // Let start-up work (migrations checks, first polls, connection setup) pass first.
      await sleep(1_000);
      const before = process.cpuUsage();
      const startedAt = performance.now();
      await sleep(settings.w6Seconds * 1000);
      const used = process.cpuUsage(before);
      const elapsedMicros = (performance.now() - startedAt) * 1000;
      return { cpu: ((used.user + used.system) / elapsedMicros) * 100 };
    } finally {
      await worker.stop();
    }
  },
};
