import { withJobRun } from '../ambient/job-run-storage.js';
import type { StopReason } from '../driver/job-state.js';
import type { StepRecord } from '../driver/step-store.js';
import { coreError } from '../errors/core-error.js';
import { JobsError } from '../errors/jobs-error.js';
import { isFinalAttempt, pastRetries } from '../job/attempt-budget.js';
import type { ResolvedJobDefinition } from '../job/definition-of.js';
import type { JobContext } from '../job/job-context.js';
import { UNWINDING_STEP } from '../job/step-name.js';
import { isThenable } from '../primitives/is-thenable.js';
import { type Failure, failureOf } from '../steps/failure.js';
import { persistableJsonForm } from '../steps/json-form.js';
import { isStepSuspension } from '../steps/step-suspension.js';
import type { JsonValue } from '../values/json.js';
import type { AttemptScope } from './attempt-scope.js';
import { newStepRunner } from './attempt-steps.js';
import { BodyArgs } from './run-args.js';
import { runContext } from './run-context.js';
import type { AttemptOutcome } from './settlement.js';

/** Receives the body phase's outcome, exactly once. */
export type BodyDone = (outcome: AttemptOutcome) => void;

/**
 * Phase 4, run body: builds `ctx` (the app's context, the run's signal, actor and ids) and calls
 * `run` under the ambient run context, racing its `timeout` and the attempt's stops; `done` gets
 * the outcome exactly once (a throw anywhere in this phase is a `threw` outcome).
 *
 * A run that already failed for good — an `unwinding` marker in its steps, or a compensating row
 * past its retries — replays instead: completed steps answer from storage, the first other step
 * ends the pass, and the outcome is `buried` (the stored verdict, or `X_JOB_MAX_ATTEMPTS`).
 * The timeout aborts `ctx.signal` first, then ends the race (`stopped`); a body that finishes
 * anyway is logged `jobs.timeout.abandoned`.
 *
 * Continuation-passing rather than `async`: on the hot path (no compensation, a synchronous
 * `context()`) the phase makes one promise, the body's `then`; with the ambient run context on,
 * every promise and `await` of the executor costs a promise hook.
 */
export function runBody(scope: AttemptScope, done: BodyDone): void {
  const definition = scope.definition as ResolvedJobDefinition; // admission found it
  const exhausted = pastRetries(scope.job, definition);
  // Only a compensating job can carry an unwinding marker, so only it reads its steps up front;
  // every other run reads them on its first step (a job that calls no step never reads the store).
  if (!definition.compensates) {
    if (exhausted) done(buried(scope, definition, undefined));
    else withAppContext(scope, definition, undefined, false, done);
    return;
  }
  let loading: Promise<readonly StepRecord[]>;
  try {
    loading = scope.driver.steps.load(scope.job.runId);
  } catch (error) {
    done({ kind: 'threw', error });
    return;
  }
  loading.then(
    (records) => {
      let marker: StepRecord | undefined;
      try {
        marker = records.find((record) => record.name === UNWINDING_STEP);
        newStepRunner(scope, records, marker !== undefined || exhausted ? 'replay' : 'run');
      } catch (error) {
        done({ kind: 'threw', error });
        return;
      }
      withAppContext(scope, definition, marker, marker !== undefined || exhausted, done);
    },
    (error: unknown) => done({ kind: 'threw', error }),
  );
}

/** Builds the app's part of `ctx` (awaited only when `context()` answers a promise), then the body. */
function withAppContext(
  scope: AttemptScope,
  definition: ResolvedJobDefinition,
  marker: StepRecord | undefined,
  replayOnly: boolean,
  done: BodyDone,
): void {
  let app: JobContext | Promise<JobContext>;
  try {
    app = scope.settings.context();
  } catch (error) {
    done({ kind: 'threw', error });
    return;
  }
  if (!isThenable(app)) {
    startBody(scope, definition, marker, replayOnly, app, done);
    return;
  }
  Promise.resolve(app).then(
    (appContext) => startBody(scope, definition, marker, replayOnly, appContext, done),
    (error: unknown) => done({ kind: 'threw', error }),
  );
}

/** Calls the body and races it against the attempt's stops and its timeout. */
function startBody(
  scope: AttemptScope,
  definition: ResolvedJobDefinition,
  marker: StepRecord | undefined,
  replayOnly: boolean,
  appContext: JobContext,
  done: BodyDone,
): void {
  const job = scope.job;
  const stop = scope.stop;
  let body: Promise<unknown>;
  try {
    const ctx = runContext(appContext, stop.body, job);
    const args = new BodyArgs(scope, ctx, isFinalAttempt(job, definition));
    body = Promise.resolve(withJobRun(ctx, () => definition.run(args as never)));
  } catch (error) {
    body = Promise.reject(error);
  }
  const timer = replayOnly ? undefined : armTimeout(scope, definition, body);
  let over = false;
  const finish = (outcome: AttemptOutcome): void => {
    if (over) return;
    over = true;
    stop.bodyEnded();
    if (timer !== undefined) clearTimeout(timer);
    done(replayOnly ? buried(scope, definition, marker?.output) : outcome);
  };
  // The body settled: its steps still in flight end first (see afterSteps), inside the race.
  const settle = (outcome: AttemptOutcome): void => {
    let after: AttemptOutcome | Promise<AttemptOutcome>;
    try {
      after = afterSteps(scope, outcome);
    } catch (error) {
      after = { kind: 'threw', error };
    }
    if (after instanceof Promise) after.then(finish, (error: unknown) => finish({ kind: 'threw', error }));
    else finish(after);
  };
  body.then(
    (value) => settle(returnedOutcome(job.name, value)),
    (error: unknown) => settle(threwOutcome(error)),
  );
  stop.whenEnded(() => {
    if (over) return;
    scope.lingering = body.then(ignore, ignore);
    finish(STOPPED_OUTCOME);
  });
}

const ignore = (): void => undefined;

const STOPPED_OUTCOME: AttemptOutcome = Object.freeze({ kind: 'stopped' });
const RETURNED_NULL: AttemptOutcome = Object.freeze({ kind: 'returned', result: null });

/** What a body that returned `value` came to: its storable JSON form, or refused when it has none. */
function returnedOutcome(name: string, value: unknown): AttemptOutcome {
  // A body that returns nothing (most do) is stored as null: no check, no label, no object.
  if (value === undefined || value === null) return RETURNED_NULL;
  try {
    return { kind: 'returned', result: persistableJsonForm(value, `job '${name}' result`) };
  } catch (error) {
    return { kind: 'refused', failure: failureOf(error) };
  }
}

/**
 * Parallel steps end together: once the body settled, the steps it left in flight (siblings of a
 * `Promise.all` that rejected first) run to their end — outputs saved, failures recorded — before
 * the attempt settles, and every suspension among them parks the run at the earliest wake time.
 * The hot path (no step in flight, no suspension) answers without a promise.
 */
function afterSteps(scope: AttemptScope, settled: AttemptOutcome): AttemptOutcome | Promise<AttemptOutcome> {
  const activity = scope.runner?.activity;
  if (activity === undefined || (activity.quiet && settled.kind !== 'suspended')) return settled;
  const merge = (): AttemptOutcome =>
    settled.kind === 'suspended'
      ? { kind: 'suspended', suspension: activity.parkedOn(settled.suspension) }
      : settled;
  return activity.idle().then(merge);
}

function threwOutcome(error: unknown): AttemptOutcome {
  return isStepSuspension(error) ? { kind: 'suspended', suspension: error } : { kind: 'threw', error };
}

/** Arms the job's `timeout`: aborts `ctx.signal` (every later step write is refused), ends the race. */
function armTimeout(
  scope: AttemptScope,
  definition: ResolvedJobDefinition,
  body: Promise<unknown>,
): NodeJS.Timeout | undefined {
  const timeoutMs = definition.timeout;
  if (timeoutMs === undefined) return undefined;
  return setTimeout(() => {
    const error = coreError(
      'X_JOB_TIMEOUT',
      `Job '${scope.job.name}' exceeded its ${timeoutMs} ms timeout.`,
      {
        timeoutMs,
      },
    );
    scope.stop.stop({ kind: 'timeout', error });
    const abandoned = () => scope.settings.logger.log('warn', 'jobs.timeout.abandoned', scope.logFields());
    body.then(abandoned, abandoned);
  }, timeoutMs);
}

/** The verdict of a run that already failed for good: its stored marker, else a spent budget. */
function buried(
  scope: AttemptScope,
  definition: ResolvedJobDefinition,
  marker: JsonValue | undefined,
): AttemptOutcome {
  const stored = marker as { code?: string; message?: string; stopReason?: StopReason } | null | undefined;
  let failure: Failure;
  if (stored?.code !== undefined) {
    const message = stored.message ?? '';
    failure = { error: new JobsError(stored.code, message), record: { code: stored.code, message } };
  } else {
    failure = failureOf(
      coreError(
        'X_JOB_MAX_ATTEMPTS',
        `Job '${scope.job.name}' used its ${definition.retry.attempts} attempts (the last one's lease lapsed).`,
        { attempts: definition.retry.attempts },
      ),
    );
  }
  return { kind: 'buried', failure, stopReason: stored?.stopReason ?? 'attempts-exhausted' };
}
