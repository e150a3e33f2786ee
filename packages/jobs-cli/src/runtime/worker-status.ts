import type { WorkerStats } from '@x/jobs-core';
import type { Palette } from '../output/colour.js';

/** The worker's live status line: `● running · in flight 2/10 · completed 14 · retried 1 · dead 0`. */
export function workerStatus(stats: WorkerStats, p: Palette): string {
  const count = (key: string): number => stats.counts[key] ?? 0;
  const parts = [
    `${stats.state === 'running' ? p.green('●') : p.yellow('●')} ${stats.state}`,
    `in flight ${stats.inFlight}/${stats.capacity}`,
    `completed ${count('completed')}`,
    `retried ${count('retried')}`,
    `suspended ${count('suspended')}`,
    `dead ${count('dead') === 0 ? '0' : p.red(String(count('dead')))}`,
  ];
  if (count('lease-lost') > 0) parts.push(p.red(`leases lost ${count('lease-lost')}`));
  return parts.join(p.dim(' · '));
}
