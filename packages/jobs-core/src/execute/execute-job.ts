import { SpanKind } from '@opentelemetry/api';
import type { ClaimedJob } from '../driver/claim.js';
import type { EventQuery } from '../driver/event-store.js';
import type { JobDriver } from '../driver/job-driver.js';
import type { JobErrorRecord, StopReason } from '../driver/job-state.js';
import type { LeaseGrant } from '../driver/lease-store.js';
import type { StepRecord } from '../driver/step-store.js';
import { coreError } from '../errors/core-error.js';
import { errorCode, JobsError } from '../errors/jobs-error.js';
import { definitionOf, isJobHandle, type ResolvedJobDefinition } from '../job/definition-of.js';
import type { JobContext, JobRunContext } from '../job/job-context.js';
import type { Settled } from '../job/settled.js';
import type { StepApi } from '../job/step-api.js';
import { UNWINDING_STEP } from '../job/step-name.js';
import type { JsonValue } from '../json.js';
import { decideRetry } from '../retry/decide-retry.js';
import { DEFAULT_RETRY_POLICY } from '../retry/retry-policy.js';
import type { JobMetrics } from '../telemetry/job-metrics.js';
import { contextFromTraceparent, inSpan } from '../telemetry/job-tracing.js';
import type { JobsLogger } from '../worker/logger.js';
import { type RenewalHandlers, type RenewalTimer, startRenewalTimer } from '../worker/renewal-timer.js';
import type { ExecutionObserver } from './execution-observer.js';
import { withJobRun } from './job-run-storage.js';
import { persistableJsonForm } from './json-form.js';
import { LazyAbort } from './lazy-abort.js';
import { ProgressWriter } from './progress-writer.js';
import { settleWithRetry } from './settle-retry.js';
import { type PendingCompensation, StepRunner, type StepRunnerOptions } from './step-runner.js';
import { isStepSuspension } from './step-suspension.js';
import { UnwindReached } from './unwind-reached.js';

/** How long a `waitForEvent` parks between polls when the job declares no `eventPoll`. */
export const DEFAULT_EVENT_POLL_MS = 30_000;

/** How long `onSettled` may run before it is abandoned (and logged). */
export const DEFAULT_SETTLED_TIMEOUT_MS = 30_000;

/** How long a run over its fleet concurrency cap (`whenBusy: 'wait'`) waits before it is offered again. */
export const CONCURRENCY_BUSY_RETRY_MS = 1_000;

/** How an execution ended, from the executor's point of view. */
export type ExecutionOutcome =
  | 'completed'
  | 'retried'
  | 'dead'
  | 'suspended'
  | 'released'
  | 'cancelled'
  | 'lease-lost'
  | 'settle-failed';

/** What {@link executeJob} answers. */
export interface ExecutionResult {
  readonly outcome: ExecutionOutcome;
  /** The error code of a failed, dead or lost attempt. */
  readonly code: string | null;
}

/** A source of job handles by durable name: a `JobRegistry`, or anything with `get`. */
export interface HandleSource {
  get(name: string): unknown;
}

/** What every execution of one worker shares (everything of {@link ExecuteJobOptions} but the job). */
export interface ExecutionSettings {
  readonly driver: JobDriver;
  /** Where the row's job name is looked up. */
  readonly registry: HandleSource;
  /** Builds the app's part of `ctx` for this run. */
  readonly context: () => JobContext | Promise<JobContext>;
  /** The lease a heartbeat buys (and the fleet slot's TTL). */
  readonly visibilityTimeoutMs: number;
  /** How often the lease (and slot) is renewed. (Default: a third of the window) */
  readonly heartbeatIntervalMs?: number;
  readonly logger: JobsLogger;
  readonly metrics?: JobMetrics;
  readonly observer?: ExecutionObserver;
  /** (Default: {@link DEFAULT_SETTLED_TIMEOUT_MS}) */
  readonly settledTimeoutMs?: number;
}

/** Everything one execution needs. */
export interface ExecuteJobOptions extends ExecutionSettings {
  /** The claimed row. */
  readonly job: ClaimedJob;
  /**
   * The worker's signal for this job: aborting it with `X_DRAINING` interrupts the run (handed
   * back uncounted once the body stops).
   */
  readonly signal?: AbortSignal;
  /**
   * Aborted when the worker gives up on a body that ignored its signal (the drain deadline): the
   * lease and slot stop being renewed, so the row lapses and is redelivered as a counted attempt.
   */
  readonly abandon?: AbortSignal;
  /**
   * Called once when the run's own work is over and only the row's settle (ack, nack) remains, so a
   * worker can free the slot and start the next job while the settle is in flight.
   */
  readonly onWorkDone?: () => void;
}

/** A failure the executor settles: the error, its record, and whether it is terminal by construction. */
interface Failure {
  readonly error: unknown;
  readonly record: JobErrorRecord;
}

/**
 * Runs one claimed job: the only execution path. It owns the attempt (counted by the claim), the
 * step store, the timeout, the heartbeat and the fleet slot, and it settles the row exactly once
 * (ack, retry, suspend, release or dead), fenced on the claim.
 *
 * - A completed step replays from storage; suspension (`sleep`, `waitForEvent`) burns no attempt.
 * - `timeout` aborts `ctx.signal` first, then fails the attempt (`X_JOB_TIMEOUT`); a body that
 *   finishes anyway is logged `jobs.timeout.abandoned`.
 * - A heartbeat that answers false (cancelled, reclaimed) aborts the run with `X_JOB_LEASE_LOST`
 *   and settles nothing: the row is no longer this worker's.
 * - An abort with `X_DRAINING` hands the row back to ready with its attempt uncounted.
 * - The thrown error's retry class and the policy decide retry vs dead; a run that fails for good
 *   unwinds its compensators last-in first-out, durably, before it is dead-lettered.
 */
export function executeJob(options: ExecuteJobOptions): Promise<ExecutionResult> {
  const execution = new Execution(options, options.job, options.onWorkDone);
  const { signal, abandon } = options;
  if (signal === undefined && abandon === undefined) return runTraced(execution);
  const interrupt = () => execution.interrupt(signal?.reason);
  const stopRenewing = () => execution.abandon();
  if (signal?.aborted) interrupt();
  else signal?.addEventListener('abort', interrupt, { once: true });
  if (abandon?.aborted) stopRenewing();
  else abandon?.addEventListener('abort', stopRenewing, { once: true });
  return runTraced(execution).finally(() => {
    signal?.removeEventListener('abort', interrupt);
    abandon?.removeEventListener('abort', stopRenewing);
  });
}

/** Runs an execution inside its job's span (when there is a trace to record or carry). */
export function runTraced(execution: Execution): Promise<ExecutionResult> {
  const job = execution.job;
  return inSpan(
    `job ${job.name}`,
    contextFromTraceparent(job.traceparent),
    () => ({
      'x_jobs.job.id': job.id,
      'x_jobs.job.name': job.name,
      'x_jobs.queue': job.queue,
      'x_jobs.attempt': job.attempt,
      'x_jobs.run_id': job.runId,
    }),
    (span) => {
      if (span === undefined) return execution.run();
      return execution.run().then((result) => {
        span.setAttribute('x_jobs.outcome', result.outcome);
        if (result.code !== null) span.setAttribute('x_jobs.error_code', result.code);
        return result;
      });
    },
    SpanKind.CONSUMER,
  );
}

/**
 * What a body receives. `step` and `progress` are prototype getters, built on first read: a body
 * that never touches them (most short jobs) pays neither for them nor for a closure per run.
 */
class RunArgs {
  readonly input: unknown;
  readonly ctx: JobRunContext;
  readonly finalAttempt: boolean;
  readonly #execution: Execution;

  constructor(execution: Execution, input: unknown, ctx: JobRunContext, finalAttempt: boolean) {
    this.#execution = execution;
    this.input = input;
    this.ctx = ctx;
    this.finalAttempt = finalAttempt;
  }

  get step(): StepApi<boolean> {
    return this.#execution.stepApi();
  }

  get progress(): (current: number, total?: number) => void {
    return this.#execution.progressReport();
  }
}

/** The result of every completed run (shared: results are read, never changed). */
const COMPLETED: ExecutionResult = Object.freeze({ outcome: 'completed', code: null });

/**
 * One execution's state, and the handlers of its lease renewal. Internal: the worker creates these directly (one settings object for all
 * its jobs, and interrupts them itself on a drain instead of through a listener per job).
 */
export class Execution implements RenewalHandlers {
  readonly #options: ExecutionSettings;
  readonly #job: ClaimedJob;
  readonly #onWorkDone: (() => void) | undefined;
  readonly #driver: JobDriver;
  readonly #attempt = new LazyAbort();
  /** The unwind's signal: a drain or a lost lease aborts it, the body's timeout does not. */
  readonly #unwindSignal = new LazyAbort();
  #slot: LeaseGrant | null = null;
  #renewal: RenewalTimer | undefined;
  #settleAttempted = false;
  #lostError: JobsError | undefined;
  #input: unknown;
  #inputParsed = false;
  #abandoned = false;
  /** Rejects the body's race (a lost lease, the timeout); set once the body is started. */
  #breakBody: ((error: unknown) => void) | undefined;
  /** A break that came before the body started. */
  #brokenBy: unknown;
  #runner: StepRunner | undefined;
  #progress: ProgressWriter | undefined;
  #definition: ResolvedJobDefinition | undefined;

  constructor(settings: ExecutionSettings, job: ClaimedJob, onWorkDone?: () => void) {
    this.#options = settings;
    this.#job = job;
    this.#driver = settings.driver;
    this.#onWorkDone = onWorkDone;
  }

  /** The claimed row this execution runs. */
  get job(): ClaimedJob {
    return this.#job;
  }

  /** Interrupts the run (a drain: `X_DRAINING` hands it back uncounted once the body stops). */
  interrupt(reason: unknown): void {
    this.#attempt.abort(reason);
    this.#unwindSignal.abort(reason);
  }

  /** Stops renewing the lease and slot (the drain deadline gave up on a body that kept running). */
  abandon(): void {
    this.#abandoned = true;
    this.#renewal?.stop();
  }

  /** Runs the claimed row to its settle, once. */
  async run(): Promise<ExecutionResult> {
    // The attempt counts from here (JobDriver.start, unless the claim started it), before any app
    // code runs, so every path below settles a counted attempt as it did when the claim counted
    // it. A start refused or failed leaves the row to its claim's lease: it comes back uncounted.
    const started =
      this.#job.started === true ||
      (await this.#driver
        .start(this.#job.id, this.#job.claim, this.#options.visibilityTimeoutMs)
        .catch(() => false));
    if (!started) return this.#lostAfterFinish();
    const handle = this.#options.registry.get(this.#job.name);
    if (!isJobHandle(handle)) {
      const error = coreError(
        'X_JOB_UNKNOWN',
        `No job named '${this.#job.name}' is registered in this worker; register it with defineJobs (or deploy the worker that has it).`,
        { name: this.#job.name },
      );
      return this.#fail(undefined, { error, record: recordOf(error) });
    }
    const definition = definitionOf(handle);
    this.#definition = definition;
    try {
      const refused = this.#refuseInput(definition);
      if (refused !== undefined) return await refused;
      if (definition.concurrency !== undefined) {
        const busy = await this.#acquireSlot(definition);
        if (busy !== undefined) return busy;
      }
      const interval =
        this.#options.heartbeatIntervalMs ?? Math.max(1, Math.floor(this.#options.visibilityTimeoutMs / 3));
      const renewal = startRenewalTimer(interval, this.#options.visibilityTimeoutMs, this);
      this.#renewal = renewal;
      if (this.#abandoned) renewal.stop();
      try {
        return await this.#execute(definition);
      } finally {
        renewal.stop();
        if (this.#slot !== null) await this.#releaseSlot();
      }
    } catch (error) {
      if (this.#settleAttempted) throw error;
      if (errorCode(this.#attempt.reason) === 'X_DRAINING') return this.#releaseDrained();
      // Thrown outside the body — context(), tenant(), concurrency.key(), the step load, the slot —
      // so no settle handled it: a failed attempt like any other, never a row left running.
      const failure: Failure = { error, record: recordOf(error) };
      const decision = decideRetry({ policy: definition.retry, attempt: this.#job.attempt, error });
      if (decision.action === 'retry') return this.#fail(definition, failure, decision.delayMs);
      return this.#settleDead(definition, failure, decision.stopReason);
    }
  }

  /**
   * Parses the stored input and checks its tenant; answers the dead-letter settle when the row can
   * never run (input no longer matches the schema, or names another tenant), else undefined.
   */
  #refuseInput(definition: ResolvedJobDefinition): Promise<ExecutionResult> | undefined {
    const parsed = definition.schema.safeParse(this.#job.payload);
    if (!parsed.success) {
      const error = coreError(
        'X_JOB_INPUT_INVALID',
        `The stored input of job ${this.#job.id} no longer matches '${this.#job.name}''s schema.`,
        { issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), code: issue.code })) },
      );
      return this.#settleDead(definition, { error, record: recordOf(error) }, 'terminal');
    }
    this.#input = parsed.data;
    this.#inputParsed = true;
    if (definition.tenant !== 'none') {
      const declared = definition.tenant(this.#input);
      if (this.#job.tenantId !== null && declared !== this.#job.tenantId) {
        const error = coreError(
          'X_JOB_TENANT_MISMATCH',
          `Job ${this.#job.id} is queued for a tenant its input does not name; refusing to run it.`,
          { jobId: this.#job.id },
        );
        return this.#settleDead(definition, { error, record: recordOf(error) }, 'terminal');
      }
    }
    return undefined;
  }

  /** RenewalHandlers: one renewal threw. */
  onFailed(error: unknown): void {
    this.#options.logger.log('warn', 'jobs.heartbeat.failed', {
      ...this.#logFields(),
      code: errorCode(error) ?? null,
    });
  }

  /** RenewalHandlers: a whole window passed with no renewal landing. */
  onLost(): void {
    this.#options.logger.log('error', 'jobs.lease.lost', this.#logFields());
    this.#options.metrics?.leaseLost(this.#job.queue);
  }

  /** RenewalHandlers: a renewal was refused (cancelled or reclaimed): the run is interrupted. */
  onRefused(): void {
    const error = this.#lostError ?? leaseLostError(this.#job.id);
    this.#attempt.abort(error);
    this.#unwindSignal.abort(error);
    this.#break(error);
  }

  /** Ends the body's race with `error` (now, or as soon as the body starts). */
  #break(error: unknown): void {
    if (this.#breakBody !== undefined) this.#breakBody(error);
    else if (this.#brokenBy === undefined) this.#brokenBy = error;
  }

  /** The attempt's step runner, created on the first step the body reaches. */
  #steps(): StepRunner {
    this.#runner ??= this.#newRunner(() => this.#driver.steps.load(this.#job.runId), 'run');
    return this.#runner;
  }

  #newRunner(records: StepRunnerOptions['records'], mode: StepRunnerOptions['mode']): StepRunner {
    const definition = this.#definition as ResolvedJobDefinition; // set before the body can call a step
    return new StepRunner({
      driver: this.#driver,
      fence: { jobId: this.#job.id, runId: this.#job.runId, claim: this.#job.claim },
      jobName: this.#job.name,
      records,
      attempt: this.#attempt,
      stepTimeoutMs: definition.stepTimeout,
      eventPollMs: definition.eventPoll ?? DEFAULT_EVENT_POLL_MS,
      compensates: definition.compensates,
      mode,
      observer: this.#options.observer,
    });
  }

  /** The `step` API handed to the body (see {@link RunArgs}): its runner is created on first use. */
  stepApi(): StepApi<boolean> {
    return {
      run: (name: string, fn: (signal: AbortSignal) => unknown, opts?: object) =>
        this.#steps().run(name, fn, opts),
      sleep: (a: unknown, b?: unknown) => this.#steps().sleep(a, b),
      sleepUntil: (name: string, date: Date | number) => this.#steps().sleepUntil(name, date),
      waitForEvent: (name: string, event: string, opts: never) =>
        this.#steps().waitForEvent(name, event, opts),
    } as unknown as StepApi<boolean>;
  }

  /** The `progress` function handed to the body (see {@link RunArgs}): its writer is created on first use. */
  progressReport(): (current: number, total?: number) => void {
    this.#progress ??= new ProgressWriter(this.#driver, this.#job, this.#options.logger);
    return this.#progress.report;
  }

  async #execute(definition: ResolvedJobDefinition): Promise<ExecutionResult> {
    // Only a compensating job can carry an unwinding marker, so only it reads its steps up front;
    // every other run reads them on its first step (a job with no steps never touches the store,
    // and one whose body never calls `step` never builds a runner).
    const exhausted = this.#job.attempt > definition.retry.attempts;
    let unwinding: StepRecord | undefined;
    if (definition.compensates) {
      const records = await this.#driver.steps.load(this.#job.runId);
      unwinding = records.find((record) => record.name === UNWINDING_STEP);
      this.#runner = this.#newRunner(records, unwinding !== undefined || exhausted ? 'replay' : 'run');
    }
    const replayOnly = unwinding !== undefined || exhausted;
    if (replayOnly && this.#runner === undefined) {
      this.#runner = this.#newRunner(() => this.#driver.steps.load(this.#job.runId), 'replay');
    }
    if (exhausted && !definition.compensates) {
      // Nothing to unwind: the lapsed final attempt used the last one. No need to run the body.
      return this.#unwindAndBury(definition, undefined, undefined);
    }
    const app = this.#options.context();
    const appContext = isThenable(app) ? await app : app;
    const attempt = this.#attempt;
    const ctx: JobRunContext = {
      ...appContext,
      // A getter: the AbortSignal is created only for bodies that read it.
      get signal() {
        return attempt.signal;
      },
      actor: { id: `job:${this.#job.name}`, orgId: this.#job.tenantId },
      jobId: this.#job.id,
      runId: this.#job.runId,
      name: this.#job.name,
      attempt: this.#job.attempt,
    };
    const args = new RunArgs(this, this.#input, ctx, this.#job.attempt >= definition.retry.attempts);

    let body: Promise<unknown>;
    try {
      body = Promise.resolve(withJobRun(ctx, () => definition.run(args as never)));
    } catch (error) {
      body = Promise.reject(error);
    }
    let timer: NodeJS.Timeout | undefined;
    // The body races a lost lease (#break) and the timeout; whichever settles first decides.
    const raced = new Promise<unknown>((resolve, reject) => {
      this.#breakBody = reject;
      body.then(resolve, reject);
    });
    if (this.#brokenBy !== undefined) this.#breakBody?.(this.#brokenBy);
    if (definition.timeout !== undefined && !replayOnly) {
      const timeoutMs = definition.timeout;
      timer = setTimeout(() => {
        const error = coreError(
          'X_JOB_TIMEOUT',
          `Job '${this.#job.name}' exceeded its ${timeoutMs} ms timeout.`,
          {
            timeoutMs,
          },
        );
        // Abort first: past this point every step write is refused, so the failed attempt's
        // body can never write into the run the next attempt owns.
        this.#attempt.abort(error);
        this.#breakBody?.(error);
        body.then(
          () => this.#options.logger.log('warn', 'jobs.timeout.abandoned', this.#logFields()),
          () => this.#options.logger.log('warn', 'jobs.timeout.abandoned', this.#logFields()),
        );
      }, timeoutMs);
    }

    let value: unknown;
    try {
      value = await raced;
    } catch (error) {
      if (error instanceof UnwindReached || replayOnly) {
        return this.#unwindAndBury(definition, unwinding?.output, error);
      }
      return this.#settleThrown(definition, error);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
    if (replayOnly) return this.#unwindAndBury(definition, unwinding?.output, undefined);
    return this.#complete(definition, value);
  }

  async #complete(definition: ResolvedJobDefinition, value: unknown): Promise<ExecutionResult> {
    let result: JsonValue;
    try {
      result = persistableJsonForm(value, `job '${this.#job.name}' result`);
    } catch (error) {
      return this.#settleDead(definition, { error, record: recordOf(error) }, 'terminal');
    }
    if (this.#progress !== undefined) await this.#progress.flush();
    const landed = await this.#settle(() => this.#driver.ack(this.#job.id, this.#job.claim, result));
    if (landed === 'failed') return { outcome: 'settle-failed', code: 'X_DRIVER_UNAVAILABLE' };
    if (!landed) return this.#lostAfterFinish();
    this.#options.metrics?.outcome(this.#job.queue, 'completed');
    if (definition.onSettled !== undefined) {
      await this.#settled(definition, {
        outcome: 'completed',
        input: this.#input,
        result,
        code: null,
        error: null,
        stopReason: null,
      });
    }
    return COMPLETED;
  }

  async #settleThrown(definition: ResolvedJobDefinition, thrown: unknown): Promise<ExecutionResult> {
    if (this.#progress !== undefined) await this.#progress.flush();
    if (isStepSuspension(thrown)) {
      const landed = await this.#settle(() =>
        this.#driver.nack(this.#job.id, this.#job.claim, {
          kind: 'suspend',
          runAt: thrown.runAt,
          ...(thrown.waitFor === undefined ? {} : { waitFor: thrown.waitFor }),
        }),
      );
      if (landed === 'failed') return { outcome: 'settle-failed', code: 'X_DRIVER_UNAVAILABLE' };
      if (!landed) return this.#lostAfterFinish();
      if (thrown.waitFor !== undefined && thrown.query !== undefined) {
        await this.#recheckWait(thrown.waitFor, thrown.query);
      }
      this.#options.metrics?.outcome(this.#job.queue, 'suspended');
      return { outcome: 'suspended', code: null };
    }
    if (this.#lostError !== undefined && this.#lostError.code === 'X_JOB_LEASE_LOST') {
      return this.#lostAfterFinish();
    }
    const abortReason = this.#attempt.aborted ? this.#attempt.reason : undefined;
    if (errorCode(abortReason) === 'X_DRAINING') {
      // The verdict is read off the signal, not off what the body threw: an interruption, not a failure.
      return this.#releaseDrained();
    }
    const failure: Failure = { error: thrown, record: recordOf(thrown) };
    const decision = decideRetry({ policy: definition.retry, attempt: this.#job.attempt, error: thrown });
    if (decision.action === 'retry') {
      return this.#fail(definition, failure, decision.delayMs);
    }
    const runner = this.#runner;
    if (definition.compensates && runner !== undefined && runner.compensations.length > 0) {
      return this.#unwind(definition, runner, runner.compensations, failure, decision.stopReason);
    }
    return this.#settleDead(definition, failure, decision.stopReason);
  }

  /**
   * An event published between the wait's last look and the suspension being recorded woke no one
   * (the row was not yet waiting): look once more, and make the run due now if it is there.
   */
  async #recheckWait(event: string, query: EventQuery): Promise<void> {
    try {
      if ((await this.#driver.events.find(event, query)) !== null)
        await this.#driver.introspect?.promote(this.#job.id);
    } catch (error) {
      this.#options.logger.log('debug', 'jobs.wait.recheck-failed', {
        ...this.#logFields(),
        code: errorCode(error) ?? null,
      });
    }
  }

  /** A run that failed for good earlier (or whose final attempt lapsed): replay, unwind, bury. */
  async #unwindAndBury(
    definition: ResolvedJobDefinition,
    marker: JsonValue | undefined,
    thrown: unknown,
  ): Promise<ExecutionResult> {
    // The row is no longer ours (cancelled or reclaimed during the replay): nothing to settle.
    if (thrown !== undefined && this.#lostError?.code === 'X_JOB_LEASE_LOST') return this.#lostAfterFinish();
    // Anything else the replay threw (its first incomplete step, a changed body) ends the same
    // way: the run already failed for good, so it unwinds and is buried with the stored verdict.
    const stored = marker as { code?: string; message?: string; stopReason?: StopReason } | null | undefined;
    const failure: Failure =
      stored?.code !== undefined
        ? {
            error: new JobsError(stored.code, stored.message ?? ''),
            record: { code: stored.code, message: stored.message ?? '' },
          }
        : (() => {
            const error = coreError(
              'X_JOB_MAX_ATTEMPTS',
              `Job '${this.#job.name}' used its ${definition.retry.attempts} attempts (the last one's lease lapsed).`,
              { attempts: definition.retry.attempts },
            );
            return { error, record: recordOf(error) };
          })();
    const stopReason: StopReason = stored?.stopReason ?? 'attempts-exhausted';
    const runner = this.#runner;
    if (definition.compensates && runner !== undefined && runner.compensations.length > 0) {
      return this.#unwind(definition, runner, runner.compensations, failure, stopReason);
    }
    return this.#settleDead(definition, failure, stopReason);
  }

  async #unwind(
    definition: ResolvedJobDefinition,
    runner: StepRunner,
    compensations: readonly PendingCompensation[],
    failure: Failure,
    stopReason: StopReason,
  ): Promise<ExecutionResult> {
    try {
      await runner.markUnwinding(failure.record, stopReason, this.#unwindSignal.signal);
      for (const pending of [...compensations].reverse()) {
        await runner.compensate(pending, this.#unwindSignal.signal);
      }
    } catch (error) {
      if (this.#lostError?.code === 'X_JOB_LEASE_LOST') return this.#lostAfterFinish();
      // A drain interrupts the unwind like a body: handed back uncounted, the marker makes the next
      // attempt resume it, and the compensators already completed are skipped.
      if (errorCode(this.#unwindSignal.reason) === 'X_DRAINING') return this.#releaseDrained();
      const wrapped = coreError(
        'X_JOB_COMPENSATION_FAILED',
        `Compensating job '${this.#job.name}' failed: ${error instanceof Error ? error.message : String(error)}`,
        { failedCode: failure.record.code, compensatorCode: errorCode(error) ?? null },
        error,
      );
      return this.#settleDead(definition, { error: wrapped, record: recordOf(wrapped) }, 'terminal');
    }
    return this.#settleDead(definition, failure, stopReason);
  }

  /** Hands a run the drain interrupted back to ready, its attempt uncounted. */
  async #releaseDrained(): Promise<ExecutionResult> {
    const landed = await this.#settle(() =>
      this.#driver.nack(this.#job.id, this.#job.claim, { kind: 'release' }),
    );
    if (landed === 'failed') return { outcome: 'settle-failed', code: 'X_DRIVER_UNAVAILABLE' };
    if (!landed) return this.#lostAfterFinish();
    this.#options.metrics?.outcome(this.#job.queue, 'released');
    return { outcome: 'released', code: 'X_DRAINING' };
  }

  /** Retries after `delayMs`, or (without a definition: unknown job) by the default backoff. */
  async #fail(
    definition: ResolvedJobDefinition | undefined,
    failure: Failure,
    delayMs?: number,
  ): Promise<ExecutionResult> {
    let delay = delayMs;
    if (delay === undefined) {
      const decision = decideRetry({
        policy: DEFAULT_RETRY_POLICY,
        attempt: this.#job.attempt,
        error: failure.error,
      });
      if (decision.action === 'dead') {
        return this.#settleDead(definition, failure, decision.stopReason);
      }
      delay = decision.delayMs;
    }
    const runAt = this.#driver.now() + delay;
    const landed = await this.#settle(() =>
      this.#driver.nack(this.#job.id, this.#job.claim, { kind: 'retry', runAt, error: failure.record }),
    );
    if (landed === 'failed') return { outcome: 'settle-failed', code: 'X_DRIVER_UNAVAILABLE' };
    if (!landed) return this.#lostAfterFinish();
    this.#options.logger.log('warn', 'jobs.attempt.failed', {
      ...this.#logFields(),
      code: failure.record.code,
      retryInMs: delay,
    });
    this.#options.metrics?.outcome(this.#job.queue, 'retried');
    return { outcome: 'retried', code: failure.record.code };
  }

  async #settleDead(
    definition: ResolvedJobDefinition | undefined,
    failure: Failure,
    stopReason: StopReason,
  ): Promise<ExecutionResult> {
    const record: JobErrorRecord =
      stopReason === 'terminal' && this.#job.attempt < (definition?.retry.attempts ?? 0)
        ? {
            code: failure.record.code,
            message: `${failure.record.message} [terminal on attempt ${this.#job.attempt} of ${definition?.retry.attempts}]`,
          }
        : failure.record;
    const landed = await this.#settle(() =>
      this.#driver.nack(this.#job.id, this.#job.claim, { kind: 'dead', error: record, stopReason }),
    );
    if (landed === 'failed') return { outcome: 'settle-failed', code: 'X_DRIVER_UNAVAILABLE' };
    if (!landed) return this.#lostAfterFinish();
    this.#options.logger.log('error', 'jobs.attempt.failed', {
      ...this.#logFields(),
      code: record.code,
      stop: stopReason,
    });
    this.#options.metrics?.outcome(this.#job.queue, 'dead');
    if (definition !== undefined) {
      await this.#settled(definition, {
        outcome: 'failed',
        input: this.#inputParsed ? this.#input : undefined,
        result: undefined,
        code: record.code,
        error: record,
        stopReason,
      });
    }
    return { outcome: 'dead', code: record.code };
  }

  /** The row is no longer ours: find out whether it was cancelled, and report. */
  async #lostAfterFinish(): Promise<ExecutionResult> {
    const detail = await this.#driver.introspect?.get(this.#job.id).catch(() => null);
    if (detail?.state === 'cancelled') {
      this.#options.logger.log('info', 'jobs.cancelled', this.#logFields());
      this.#options.metrics?.outcome(this.#job.queue, 'cancelled');
      const handle = this.#options.registry.get(this.#job.name);
      if (isJobHandle(handle)) {
        await this.#settled(definitionOf(handle), {
          outcome: 'cancelled',
          input: this.#inputParsed ? this.#input : undefined,
          result: undefined,
          code: 'X_JOB_LEASE_LOST',
          error: null,
          stopReason: null,
        });
      }
      return { outcome: 'cancelled', code: 'X_JOB_LEASE_LOST' };
    }
    this.#options.logger.log('warn', 'jobs.claim.superseded', this.#logFields());
    this.#options.metrics?.outcome(this.#job.queue, 'lease-lost');
    return { outcome: 'lease-lost', code: 'X_JOB_LEASE_LOST' };
  }

  async #acquireSlot(definition: ResolvedJobDefinition): Promise<ExecutionResult | undefined> {
    const concurrency = definition.concurrency;
    if (concurrency === undefined) return undefined;
    const leases = this.#driver.leases;
    if (leases === undefined) {
      const error = coreError(
        'X_JOB_CONCURRENCY_UNENFORCEABLE',
        `Job '${this.#job.name}' declares concurrency but driver '${this.#driver.name}' has no lease store.`,
        { jobs: [this.#job.name] },
      );
      return this.#settleDead(definition, { error, record: recordOf(error) }, 'terminal');
    }
    const part = concurrency.key === undefined ? undefined : concurrency.key(this.#input);
    if (part !== undefined && (typeof part !== 'string' || part === '')) {
      throw coreError(
        'X_JOB_KEY_INVALID',
        `${this.#job.name}: concurrency.key(input) must return a non-empty string, got ${part === '' ? 'an empty string' : typeof part}.`,
        { job: this.#job.name, field: 'concurrency.key' },
      );
    }
    const key = `job:${this.#job.name}${part === undefined ? '' : `:${part}`}`;
    // Held per claim, not per job: a stale run of this job (lease lapsed, body still going) keeps
    // its own slot, and its release cannot free the slot of the run that was redelivered.
    this.#slot = await leases.acquire(key, `${this.#job.id}:${this.#job.claim.token}`, {
      limit: concurrency.limit,
      ttlMs: this.#options.visibilityTimeoutMs,
    });
    if (this.#slot !== null) return undefined;
    if (concurrency.whenBusy === 'fail') {
      const error = coreError(
        'X_JOB_CONCURRENCY_BUSY',
        `Job '${this.#job.name}' is at its concurrency limit of ${concurrency.limit} for '${key}' and declares whenBusy: 'fail'.`,
        { key, limit: concurrency.limit },
      );
      return this.#settleDead(definition, { error, record: recordOf(error) }, 'terminal');
    }
    const landed = await this.#settle(() =>
      this.#driver.nack(this.#job.id, this.#job.claim, {
        kind: 'release',
        runAt: this.#driver.now() + CONCURRENCY_BUSY_RETRY_MS,
      }),
    );
    if (landed === 'failed') return { outcome: 'settle-failed', code: 'X_DRIVER_UNAVAILABLE' };
    if (!landed) return this.#lostAfterFinish();
    this.#options.logger.log('debug', 'jobs.concurrency.deferred', { ...this.#logFields(), key });
    this.#options.metrics?.outcome(this.#job.queue, 'released');
    return { outcome: 'released', code: 'X_JOB_CONCURRENCY_BUSY' };
  }

  /** RenewalHandlers: renews the lease (and the fleet slot); false once either is no longer ours. */
  async renew(): Promise<boolean> {
    const landed = await this.#driver.heartbeat(
      this.#job.id,
      this.#job.claim,
      this.#options.visibilityTimeoutMs,
    );
    if (!landed) {
      this.#lostError = leaseLostError(this.#job.id);
      return false;
    }
    const slot = this.#slot;
    if (slot !== null && this.#driver.leases !== undefined) {
      const renewed = await this.#driver.leases.renew(slot, this.#options.visibilityTimeoutMs);
      if (renewed === null) {
        this.#lostError = coreError(
          'X_JOB_SLOT_LOST',
          `The concurrency slot of job ${this.#job.id} lapsed and was taken by another run.`,
          { key: slot.key },
        );
        return false;
      }
      this.#slot = renewed;
    }
    return true;
  }

  async #releaseSlot(): Promise<void> {
    const slot = this.#slot;
    this.#slot = null;
    if (slot === null || this.#driver.leases === undefined) return;
    try {
      await this.#driver.leases.release(slot);
    } catch (error) {
      this.#options.logger.log('warn', 'jobs.slot.release-failed', {
        ...this.#logFields(),
        code: errorCode(error) ?? null,
      });
    }
  }

  /**
   * Runs a fenced settle with a short retry; `'failed'` when the backend stayed unreachable. Whatever
   * it answers, the lease is no longer this run's to renew (settled, lost, or given up), so renewal
   * stops here rather than after `onSettled`.
   */
  #settle(settle: () => Promise<boolean>): Promise<boolean | 'failed'> {
    if (!this.#settleAttempted) this.#onWorkDone?.();
    this.#settleAttempted = true;
    return settleWithRetry(settle).then(
      (landed) => {
        this.#renewal?.stop();
        return landed;
      },
      (error: unknown) => {
        this.#renewal?.stop();
        this.#options.logger.log('error', 'jobs.settle.failed', {
          ...this.#logFields(),
          code: errorCode(error) ?? null,
        });
        return 'failed' as const;
      },
    );
  }

  async #settled(definition: ResolvedJobDefinition, fields: object): Promise<void> {
    const hook = definition.onSettled;
    if (hook === undefined) return;
    const settled = {
      jobId: this.#job.id,
      runId: this.#job.runId,
      name: this.#job.name,
      tenantId: this.#job.tenantId,
      attempt: this.#job.attempt,
      ...fields,
    } as Settled<unknown, unknown>;
    const limit = this.#options.settledTimeoutMs ?? DEFAULT_SETTLED_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(() => hook(settled)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(coreError('X_JOB_TIMEOUT', `onSettled of '${this.#job.name}' ran past ${limit} ms.`)),
            limit,
          );
        }),
      ]);
    } catch (error) {
      this.#options.logger.log('error', 'jobs.settled.failed', {
        ...this.#logFields(),
        code: errorCode(error) ?? 'ERROR',
      });
    } finally {
      clearTimeout(timer);
    }
  }

  #logFields(): Record<string, unknown> {
    return { jobId: this.#job.id, name: this.#job.name, queue: this.#job.queue, attempt: this.#job.attempt };
  }
}

/** True for a promise or any thenable (what `context()` may answer). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function leaseLostError(jobId: string): JobsError {
  return coreError(
    'X_JOB_LEASE_LOST',
    `Job ${jobId} was cancelled, or its lease lapsed and it was redelivered, while this worker ran it.`,
    { jobId },
  );
}

/** The row's `lastError` for a thrown value: its code (or `ERROR`) and message, never a stack. */
function recordOf(error: unknown): JobErrorRecord {
  return {
    code: errorCode(error) ?? 'ERROR',
    message: error instanceof Error ? error.message : String(error),
  };
}
