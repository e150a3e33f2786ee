import type { StopReason } from '../driver/job-state.js';
import type { StepRecord } from '../driver/step-store.js';
import { coreError } from '../errors/core-error.js';
import { JobsError } from '../errors/jobs-error.js';
import { isFinalAttempt, pastRetries } from '../job/attempt-budget.js';
import type { ResolvedJobDefinition } from '../job/definition-of.js';
import type { JobRunContext } from '../job/job-context.js';
import { UNWINDING_STEP } from '../job/step-name.js';
import type { JsonValue } from '../json.js';
import type { AttemptScope } from './attempt-scope.js';
import { newStepRunner } from './attempt-steps.js';
import { STOPPED } from './attempt-stop.js';
import { type Failure, failureOf } from './failure.js';
import { withJobRun } from './job-run-storage.js';
import { persistableJsonForm } from './json-form.js';
import { BodyArgs } from './run-args.js';
import type { AttemptOutcome } from './settlement.js';
import { isStepSuspension } from './step-suspension.js';

/**
 * Phase 4, run body: builds `ctx` (the app's context, the run's signal, actor and ids) and calls
 * `run` under the ambient run context, racing its `timeout` and the attempt's stops.
 *
 * A run that already failed for good — an `unwinding` marker in its steps, or a compensating row
 * past its retries — replays instead: completed steps answer from storage, the first other step
 * ends the pass, and the outcome is `buried` (the stored verdict, or `X_JOB_MAX_ATTEMPTS`).
 * The timeout aborts `ctx.signal` first, then ends the race (`stopped`); a body that finishes
 * anyway is logged `jobs.timeout.abandoned`.
 */
export async function runBody(scope: AttemptScope): Promise<AttemptOutcome> {
  const definition = scope.definition as ResolvedJobDefinition; // admission found it
  const job = scope.job;
  const exhausted = pastRetries(job, definition);
  let marker: StepRecord | undefined;
  // Only a compensating job can carry an unwinding marker, so only it reads its steps up front;
  // every other run reads them on its first step (a job that calls no step never reads the store).
  if (definition.compensates) {
    const records = await scope.driver.steps.load(job.runId);
    marker = records.find((record) => record.name === UNWINDING_STEP);
    newStepRunner(scope, records, marker !== undefined || exhausted ? 'replay' : 'run');
  }
  const replayOnly = marker !== undefined || exhausted;
  if (replayOnly && !definition.compensates) return buried(scope, definition, undefined);
  const app = scope.settings.context();
  const appContext = isThenable(app) ? await app : app;
  const stop = scope.stop;
  const ctx: JobRunContext = {
    ...appContext,
    // A getter: the AbortSignal is created only for bodies that read it.
    get signal() {
      return stop.body.signal;
    },
    actor: { id: `job:${job.name}`, orgId: job.tenantId },
    jobId: job.id,
    runId: job.runId,
    name: job.name,
    attempt: job.attempt,
  };
  const args = new BodyArgs(scope, ctx, isFinalAttempt(job, definition));
  let body: Promise<unknown>;
  try {
    body = Promise.resolve(withJobRun(ctx, () => definition.run(args as never)));
  } catch (error) {
    body = Promise.reject(error);
  }
  const timer = replayOnly ? undefined : armTimeout(scope, definition, body);
  const settled = await stop.race(
    body.then(
      (value) => afterSteps(scope, returnedOutcome(value)),
      (error: unknown) => afterSteps(scope, threwOutcome(error)),
    ),
  );
  if (timer !== undefined) clearTimeout(timer);
  if (settled === STOPPED) {
    scope.lingering = body.then(ignore, ignore);
    return STOPPED_OUTCOME;
  }
  if (replayOnly) return buried(scope, definition, marker?.output);
  if (settled.kind !== 'value') return settled;
  try {
    return { kind: 'returned', result: persistableJsonForm(settled.value, `job '${job.name}' result`) };
  } catch (error) {
    return { kind: 'refused', failure: failureOf(error) };
  }
}

const ignore = (): void => undefined;

const STOPPED_OUTCOME: AttemptOutcome = Object.freeze({ kind: 'stopped' });

/** What the body's promise came to, before the result is stored. */
type BodySettled = { readonly kind: 'value'; readonly value: unknown } | AttemptOutcome;

function returnedOutcome(value: unknown): BodySettled {
  return { kind: 'value', value };
}

/**
 * Parallel steps end together: once the body settled, the steps it left in flight (siblings of a
 * `Promise.all` that rejected first) run to their end — outputs saved, failures recorded — before
 * the attempt settles, and every suspension among them parks the run at the earliest wake time.
 * The hot path (no step in flight, no suspension) answers without a promise.
 */
function afterSteps(scope: AttemptScope, settled: BodySettled): BodySettled | Promise<BodySettled> {
  const activity = scope.runner?.activity;
  if (activity === undefined || (activity.quiet && settled.kind !== 'suspended')) return settled;
  const merge = (): BodySettled =>
    settled.kind === 'suspended'
      ? { kind: 'suspended', suspension: activity.parkedOn(settled.suspension) }
      : settled;
  return activity.idle().then(merge);
}

function threwOutcome(error: unknown): BodySettled {
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

/** True for a promise or any thenable (what `context()` may answer). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
