import type { JobDriver } from '@x/jobs-core';

const LIVE = ['ready', 'delayed', 'running', 'suspended'] as const;

/** Rows still live (ready, delayed, running, suspended) across every queue. */
export async function liveCount(driver: JobDriver): Promise<number> {
  let live = 0;
  for (const queue of await driver.stats()) for (const state of LIVE) live += queue.counts[state];
  return live;
}
