import type { AnyJobHandle } from '../job/job-handle.js';
import type { InvokeOptions, StepApi } from '../job/step-api.js';
import type { StepRunnerOptions } from '../steps/step-ledger.js';
import { StepRunner } from '../steps/step-runner.js';
import type { AttemptScope } from './attempt-scope.js';
import { DEFAULT_EVENT_POLL_MS } from './execution-settings.js';
import { ThrownBySteps } from './thrown-by-step.js';

/** Builds the attempt's step runner over `records` (the stored steps, or a loader called once). */
export function newStepRunner(
  scope: AttemptScope,
  records: StepRunnerOptions['records'],
  mode: StepRunnerOptions['mode'],
): StepRunner {
  const { job, definition } = scope;
  const runner = new StepRunner({
    driver: scope.driver,
    fence: { jobId: job.id, runId: job.runId, claim: job.claim },
    jobName: job.name,
    records,
    attempt: scope.stop.body,
    stepTimeoutMs: definition?.stepTimeout,
    eventPollMs: definition?.eventPoll ?? DEFAULT_EVENT_POLL_MS,
    compensates: definition?.compensates ?? false,
    mode,
    observer: scope.settings.observer,
    dueAt: job.runAt,
  });
  scope.runner = runner;
  return runner;
}

/** The attempt's runner, created on the first step the body reaches (its records loaded then). */
export function stepsOf(scope: AttemptScope): StepRunner {
  return scope.runner ?? newStepRunner(scope, () => scope.driver.steps.load(scope.job.runId), 'run');
}

/**
 * The `step` API handed to the body: each call goes to the attempt's runner, built on first use,
 * and is tracked in flight (`StepRunner.activity`) so parallel steps end before the attempt settles;
 * a call that rejects notes its step in `scope.thrownBy`, for the attempt's failure record.
 */
export function stepApiOf(scope: AttemptScope): StepApi<boolean> {
  const track = <T>(name: unknown, call: (runner: StepRunner) => Promise<T>): Promise<T> => {
    const runner = stepsOf(scope);
    return runner.activity.track(call(runner), (error) => {
      scope.thrownBy ??= new ThrownBySteps();
      scope.thrownBy.note(String(name), error);
    });
  };
  return {
    run: (name: string, fn: (signal: AbortSignal) => unknown, opts?: object) =>
      track(name, (steps) => steps.run(name, fn, opts)),
    sleep: (a: unknown, b?: unknown) =>
      track(b === undefined ? `sleep:${String(a)}` : a, (steps) => steps.sleep(a, b)),
    sleepUntil: (name: string, date: Date | number) => track(name, (steps) => steps.sleepUntil(name, date)),
    waitForEvent: (name: string, event: string, opts: never) =>
      track(name, (steps) => steps.waitForEvent(name, event, opts)),
    invoke: (name: string, child: AnyJobHandle, input: unknown, opts?: InvokeOptions) =>
      track(name, (steps) => steps.invoke(name, child, input, opts)),
  } as unknown as StepApi<boolean>;
}
