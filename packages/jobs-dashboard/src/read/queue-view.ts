import type { JobDriver, JobState, QueueStats } from '@x/jobs-core';

/** One queue as `x-jobs ls --json` and the dashboard's queues page show it. */
export interface QueueView {
  readonly queue: string;
  /** Rows per state; every state present. */
  readonly counts: Readonly<Record<JobState, number>>;
  /** Rows waiting to run: `ready + delayed`. */
  readonly depth: number;
  /** Age in ms of the oldest row due now, or null. */
  readonly oldestReadyAgeMs: number | null;
  /** Dead-lettered rows kept. */
  readonly dead: number;
  readonly paused: boolean;
}

/** The `--json` shape of `x-jobs ls`, and the dashboard's `GET api/queues`. */
export interface LsJson {
  readonly queues: readonly QueueView[];
}

/** A driver's stats as queue views, sorted by queue name. */
export function toQueueViews(stats: readonly QueueStats[]): QueueView[] {
  return [...stats]
    .sort((a, b) => a.queue.localeCompare(b.queue))
    .map((s) => ({
      queue: s.queue,
      counts: s.counts,
      depth: s.counts.ready + s.counts.delayed,
      oldestReadyAgeMs: s.oldestReadyAgeMs,
      dead: s.counts.dead,
      paused: s.paused,
    }));
}

/** Every queue the driver knows, through `driver.stats()`. */
export async function readQueues(driver: JobDriver): Promise<LsJson> {
  return { queues: toQueueViews(await driver.stats()) };
}
