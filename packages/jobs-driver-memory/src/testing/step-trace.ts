import type { ExecutionObserver } from '@x/jobs-core';

/** How often one step name ran its fn, and how often it answered from storage, across every run. */
export interface StepCount {
  /** Times the step's fn was called (a real execution). */
  executions: number;
  /** Times the step answered its stored output without calling fn. */
  replays: number;
}

/** What a harness saw: per step name, and per run id then step name. */
export interface StepTrace {
  readonly steps: Readonly<Record<string, StepCount>>;
  readonly runs: Readonly<Record<string, Readonly<Record<string, StepCount>>>>;
}

/** An {@link ExecutionObserver} that counts executions and replays into a {@link StepTrace}. */
export function stepTraceRecorder(): {
  readonly observer: ExecutionObserver;
  snapshot(): StepTrace;
  reset(): void;
} {
  let steps: Record<string, StepCount> = {};
  let runs: Record<string, Record<string, StepCount>> = {};
  const bump = (runId: string, step: string, field: keyof StepCount) => {
    steps[step] ??= { executions: 0, replays: 0 };
    steps[step][field] += 1;
    runs[runId] ??= {};
    runs[runId][step] ??= { executions: 0, replays: 0 };
    runs[runId][step][field] += 1;
  };
  return {
    observer: {
      stepExecuted: (run, step) => bump(run.runId, step, 'executions'),
      stepReplayed: (run, step) => bump(run.runId, step, 'replays'),
    },
    snapshot: () => structuredClone({ steps, runs }),
    reset: () => {
      steps = {};
      runs = {};
    },
  };
}
