import type { JobErrorRecord, JobRecord, JobState } from '@x/jobs-core';

/** What happened at one point of a job's life. */
export type TimelineKind = 'enqueued' | 'scheduled' | 'attempt' | 'step' | 'finished';

/** One entry of a job's timeline. Times are epoch ms. */
export interface TimelineEntry {
  readonly at: number;
  readonly kind: TimelineKind;
  /** A short label: `enqueued`, `attempt 2 of 5`, the step name, the final state. */
  readonly label: string;
  /** For steps: the step's status; for the ending: the final state; else null. */
  readonly status: string | null;
  /** How long it took, when known (a completed step; an ending after a start). */
  readonly durationMs: number | null;
  readonly error: JobErrorRecord | null;
}

/** The step fields a timeline needs. */
interface TimelineStep {
  readonly name: string;
  readonly status: string;
  readonly startedAt: number;
  readonly durationMs: number | null;
  readonly error: JobErrorRecord | null;
}

const TERMINAL: readonly JobState[] = ['done', 'dead', 'cancelled'];

/**
 * The row's story in time order: enqueued, scheduled for later (when `runAt` is past the
 * enqueue), the current or last attempt's start, every recorded step with its duration and
 * error, and the ending with its last error. Rows keep only their last attempt's start, so
 * earlier attempts show through their failed steps and the attempt count.
 */
export function toTimeline(job: JobRecord, steps: readonly TimelineStep[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    { at: job.enqueuedAt, kind: 'enqueued', label: 'enqueued', status: null, durationMs: null, error: null },
  ];
  if (job.runAt > job.enqueuedAt + 1000) {
    entries.push({
      at: job.runAt,
      kind: 'scheduled',
      label: 'due to run',
      status: null,
      durationMs: null,
      error: null,
    });
  }
  if (job.startedAt !== null && job.attempts > 0) {
    entries.push({
      at: job.startedAt,
      kind: 'attempt',
      label: `attempt ${job.attempts} started`,
      status: null,
      durationMs: null,
      error: null,
    });
  }
  for (const step of steps) {
    entries.push({
      at: step.startedAt,
      kind: 'step',
      label: step.name,
      status: step.status,
      durationMs: step.durationMs,
      error: step.error,
    });
  }
  if (job.finishedAt !== null && TERMINAL.includes(job.state)) {
    entries.push({
      at: job.finishedAt,
      kind: 'finished',
      label: job.state,
      status: job.state,
      durationMs: job.startedAt === null ? null : Math.max(0, job.finishedAt - job.startedAt),
      error: job.state === 'done' ? null : job.lastError,
    });
  }
  return entries.sort((a, b) => a.at - b.at);
}
