import type { JobErrorRecord, JobState } from '@x/jobs-core';

/** What happened to a job between two looks at it. */
export type JobEventKind =
  | 'enqueued'
  | 'started'
  | 'step'
  | 'retried'
  | 'suspended'
  | 'done'
  | 'dead'
  | 'cancelled';

/** One event `x-jobs tail` prints (one JSON line under `--json`). Times are epoch ms. */
export interface JobEvent {
  readonly event: JobEventKind;
  /** When the poll that saw it ran. */
  readonly at: number;
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly state: JobState;
  readonly attempts: number;
  readonly maxAttempts: number;
  /** For `step`: the step and its status (`completed` or `failed`). */
  readonly step?: { readonly name: string; readonly status: string; readonly durationMs: number | null };
  /** For `retried` and `dead`: the error of the attempt that failed. */
  readonly error?: JobErrorRecord | null;
}

/** What a tail remembers of a row between polls. */
export interface JobSighting {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly state: JobState;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly lastError: JobErrorRecord | null;
  /** Step name → status, when the steps were read for this sighting; null when they were not. */
  readonly steps: ReadonlyMap<string, { readonly status: string; readonly durationMs: number | null }> | null;
}

const ENDINGS: Readonly<Partial<Record<JobState, JobEventKind>>> = {
  done: 'done',
  dead: 'dead',
  cancelled: 'cancelled',
  suspended: 'suspended',
};

/**
 * The events that take a row from `before` (null: never seen) to `after`: table-tested, and the
 * whole of what `tail` decides. A row first seen `ready`/`delayed` was `enqueued`; a row whose
 * attempt count grew, or that turned `running`, `started`; a step whose status changed to
 * `completed` or `failed` is a `step`; a row back to `ready`/`delayed` after a failed attempt was
 * `retried`; reaching `done`, `dead`, `cancelled` or `suspended` is that event.
 */
export function jobEvents(before: JobSighting | null, after: JobSighting, at: number): JobEvent[] {
  const base = {
    at,
    id: after.id,
    name: after.name,
    queue: after.queue,
    state: after.state,
    attempts: after.attempts,
    maxAttempts: after.maxAttempts,
  };
  const events: JobEvent[] = [];
  const waiting = after.state === 'ready' || after.state === 'delayed';
  if (before === null && waiting && after.attempts === 0) events.push({ ...base, event: 'enqueued' });
  const started =
    after.attempts > (before?.attempts ?? 0) || (after.state === 'running' && before?.state !== 'running');
  if (started && (after.state === 'running' || before !== null)) events.push({ ...base, event: 'started' });
  for (const [name, step] of after.steps ?? []) {
    const was = before?.steps?.get(name)?.status;
    if (step.status !== was && (step.status === 'completed' || step.status === 'failed')) {
      events.push({ ...base, event: 'step', step: { name, ...step } });
    }
  }
  if (before !== null && before.state === 'running' && waiting) {
    events.push({ ...base, event: 'retried', error: after.lastError });
  }
  const ending = ENDINGS[after.state];
  if (ending !== undefined && before?.state !== after.state) {
    events.push({ ...base, event: ending, ...(ending === 'dead' ? { error: after.lastError } : {}) });
  }
  return events;
}
