import { context as otelContext } from '@opentelemetry/api';
import type { z } from 'zod';
import type { JobDriver } from '../driver/job-driver.js';
import type { JobErrorRecord } from '../driver/job-state.js';
import type { StepFence, StepRecord } from '../driver/step-store.js';
import { parseDuration } from '../duration.js';
import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import { assertStepName } from '../job/step-name.js';
import type { JsonObject, JsonValue } from '../json.js';
import { inSpan } from '../telemetry/job-tracing.js';
import type { ExecutionObserver } from './execution-observer.js';
import { persistableJsonForm } from './json-form.js';
import type { LazyAbort } from './lazy-abort.js';
import { StepSuspension } from './step-suspension.js';
import { UnwindReached } from './unwind-reached.js';

/** What a write checks before it lands: an `AbortSignal` or a {@link LazyAbort}. */
type AbortState = { readonly aborted: boolean; readonly reason: unknown };

/** A completed step whose `compensate` option registered an undo. */
export interface PendingCompensation {
  readonly step: string;
  readonly output: JsonValue;
  readonly compensate: (output: never, context: { readonly signal: AbortSignal }) => unknown;
}

/** Everything one attempt's steps need. */
export interface StepRunnerOptions {
  readonly driver: JobDriver;
  readonly fence: StepFence;
  readonly jobName: string;
  /**
   * What the run already persisted: the records, or a loader called once, on the first step the
   * body reaches (a job that calls no step never reads the step store).
   */
  readonly records: readonly StepRecord[] | (() => Promise<readonly StepRecord[]>);
  /** The attempt's abort: aborted on timeout, cancel, drain or a lost lease. */
  readonly attempt: LazyAbort;
  readonly stepTimeoutMs: number | undefined;
  readonly eventPollMs: number;
  readonly compensates: boolean;
  /** `'replay'`: answer completed steps only and throw {@link UnwindReached} at the first other one. */
  readonly mode: 'run' | 'replay';
  readonly observer: ExecutionObserver | undefined;
}

interface SleepState {
  readonly wakeAt: number;
}

interface WaitState {
  readonly since: number;
  readonly deadline: number;
}

/**
 * The durable step API of one attempt. Every write is refused once the attempt's signal is aborted
 * (`X_ABORTED`), and every write is fenced on the claim (a refused write is `X_JOB_LEASE_LOST`).
 */
export class StepRunner {
  readonly #options: StepRunnerOptions;
  #records = new Map<string, StepRecord>();
  #loading: Promise<void> | undefined;
  readonly #seen = new Set<string>();
  readonly #compensations: PendingCompensation[] = [];
  #nextPosition = 0;

  constructor(options: StepRunnerOptions) {
    this.#options = options;
    const records = options.records;
    if (typeof records === 'function') {
      this.#loading = undefined;
    } else {
      this.#adopt(records);
      this.#loading = Promise.resolve();
    }
  }

  /** Loads the run's records once (a no-op when they were given up front). */
  #ensureLoaded(): Promise<void> {
    if (this.#loading === undefined) {
      const load = this.#options.records as () => Promise<readonly StepRecord[]>;
      this.#loading = load().then((records) => this.#adopt(records));
    }
    return this.#loading;
  }

  #adopt(records: readonly StepRecord[]): void {
    this.#records = new Map(records.map((record) => [record.name, record]));
    this.#nextPosition = records.reduce((max, record) => Math.max(max, record.position + 1), 0);
  }

  /** Compensations registered so far, in completion order (unwind them last-in first-out). */
  get compensations(): readonly PendingCompensation[] {
    return this.#compensations;
  }

  /** The record persisted under `name`, if any. */
  record(name: string): StepRecord | undefined {
    return this.#records.get(name);
  }

  /** `step.run`. */
  async run(
    name: string,
    fn: (signal: AbortSignal) => unknown,
    options: {
      readonly once?: boolean;
      readonly timeout?: unknown;
      readonly compensate?: PendingCompensation['compensate'];
    } = {},
  ): Promise<JsonValue> {
    await this.#ensureLoaded();
    this.#claimName(name);
    if (options.compensate !== undefined && !this.#options.compensates) {
      throw coreError(
        'X_JOB_DECLARATION_INVALID',
        `step '${name}' passes compensate, but job '${this.#options.jobName}' does not declare compensates: true.`,
        { field: 'compensates', step: name },
      );
    }
    const existing = this.#records.get(name);
    if (existing?.status === 'completed') {
      this.#options.observer?.stepReplayed?.(this.#runInfo(), name);
      if (options.compensate !== undefined) {
        this.#compensations.push({ step: name, output: existing.output, compensate: options.compensate });
      }
      return existing.output;
    }
    if (this.#options.mode === 'replay') throw new UnwindReached(name);
    if (existing?.status === 'started' && options.once === true) {
      throw coreError(
        'X_STEP_OUTCOME_UNKNOWN',
        `once-step '${name}' started and never recorded completion: it may or may not have run. Resolve it with x-jobs resolve-step, then retry the job.`,
        { step: name },
      );
    }
    const position = existing?.position ?? this.#nextPosition++;
    const startedAt = existing?.startedAt ?? this.#now();
    if (options.once === true) {
      await this.#save({
        name,
        position,
        status: 'started',
        output: null,
        error: null,
        startedAt,
        completedAt: null,
      });
    }
    const timeoutMs =
      options.timeout === undefined
        ? this.#options.stepTimeoutMs
        : parseDuration(options.timeout, `step '${name}' timeout`);
    const output = await inSpan(
      `step ${name}`,
      otelContext.active(),
      () => ({ 'x_jobs.step': name }),
      async () => {
        let value: unknown;
        try {
          this.#assertNotAborted(name); // refused before fn runs: not an execution
          this.#options.observer?.stepExecuted?.(this.#runInfo(), name);
          value = await this.#withStepTimeout(name, timeoutMs, fn);
        } catch (error) {
          await this.#saveFailure({ name, position, startedAt }, error);
          throw error;
        }
        return persistableJsonForm(value, `step '${name}'`);
      },
    );
    await this.#save({
      name,
      position,
      status: 'completed',
      output,
      error: null,
      startedAt,
      completedAt: this.#now(),
    });
    if (options.compensate !== undefined) {
      this.#compensations.push({ step: name, output, compensate: options.compensate });
    }
    return output;
  }

  /** `step.sleep(name, duration)`, `step.sleep(duration)`. */
  async sleep(nameOrDuration: unknown, maybeDuration?: unknown): Promise<void> {
    const named = maybeDuration !== undefined;
    const duration = named ? maybeDuration : nameOrDuration;
    const ms = parseDuration(duration, 'step.sleep duration');
    const name = named ? String(nameOrDuration) : `sleep:${String(duration)}`;
    await this.#suspendUntil(name, () => this.#now() + ms);
  }

  /** `step.sleepUntil(name, date)`. */
  async sleepUntil(name: string, date: Date | number): Promise<void> {
    const wakeAt = typeof date === 'number' ? date : date.getTime();
    if (!Number.isFinite(wakeAt)) {
      throw coreError('X_DURATION_INVALID', `step.sleepUntil('${name}'): not a valid date.`, { step: name });
    }
    await this.#suspendUntil(name, () => wakeAt);
  }

  /** `step.waitForEvent(name, event, { schema, match, timeout })`. */
  async waitForEvent(
    name: string,
    event: string,
    options: { readonly schema: z.ZodType; readonly match?: JsonObject; readonly timeout: unknown },
  ): Promise<unknown> {
    await this.#ensureLoaded();
    this.#claimName(name);
    const timeoutMs = parseDuration(options.timeout, `step.waitForEvent('${name}') timeout`);
    const existing = this.#records.get(name);
    if (existing?.status === 'completed') {
      this.#options.observer?.stepReplayed?.(this.#runInfo(), name);
      const stored = existing.output as { payload: JsonValue } | null;
      return stored === null ? null : this.#parseEvent(name, event, options.schema, stored.payload);
    }
    if (this.#options.mode === 'replay') throw new UnwindReached(name);
    const position = existing?.position ?? this.#nextPosition++;
    const now = this.#now();
    const state = (existing?.output as WaitState | null | undefined) ?? {
      since: now,
      deadline: now + timeoutMs,
    };
    const startedAt = existing?.startedAt ?? now;
    if (existing === undefined) {
      await this.#save({
        name,
        position,
        status: 'started',
        output: { ...state },
        error: null,
        startedAt,
        completedAt: null,
      });
    }
    this.#options.observer?.stepExecuted?.(this.#runInfo(), name);
    const found = await this.#options.driver.events.find(event, {
      since: state.since,
      ...(options.match === undefined ? {} : { match: options.match }),
    });
    if (found !== null) {
      const parsed = this.#parseEvent(name, event, options.schema, found.payload);
      await this.#save({
        name,
        position,
        status: 'completed',
        output: { payload: found.payload },
        error: null,
        startedAt,
        completedAt: this.#now(),
      });
      return parsed;
    }
    if (now >= state.deadline) {
      await this.#save({
        name,
        position,
        status: 'completed',
        output: null,
        error: null,
        startedAt,
        completedAt: now,
      });
      return null;
    }
    throw new StepSuspension(name, Math.min(state.deadline, now + this.#options.eventPollMs), event, {
      since: state.since,
      ...(options.match === undefined ? {} : { match: options.match }),
    });
  }

  /**
   * Runs one compensator as the durable step `compensate:<step>`; a completed one is skipped.
   * `signal` is the unwind's own: the body's timeout does not abort it, a drain or a lost lease does.
   */
  async compensate(pending: PendingCompensation, signal: AbortSignal): Promise<void> {
    await this.#ensureLoaded();
    const name = `compensate:${pending.step}`;
    const existing = this.#records.get(name);
    if (existing?.status === 'completed') {
      this.#options.observer?.stepReplayed?.(this.#runInfo(), name);
      return;
    }
    const position = existing?.position ?? this.#nextPosition++;
    const startedAt = existing?.startedAt ?? this.#now();
    this.#options.observer?.stepExecuted?.(this.#runInfo(), name);
    let value: unknown;
    try {
      value = await pending.compensate(pending.output as never, { signal });
    } catch (error) {
      await this.#saveFailure({ name, position, startedAt }, error, signal);
      throw error;
    }
    await this.#save(
      {
        name,
        position,
        status: 'completed',
        output: persistableJsonForm(value, `compensator of '${pending.step}'`),
        error: null,
        startedAt,
        completedAt: this.#now(),
      },
      signal,
    );
  }

  /**
   * Writes the `unwinding` marker: from here on every attempt of this run unwinds. `signal` as for
   * {@link compensate}.
   */
  async markUnwinding(error: JobErrorRecord, stopReason: string, signal: AbortSignal): Promise<void> {
    await this.#ensureLoaded();
    if (this.#records.get('unwinding') !== undefined) return;
    const now = this.#now();
    await this.#save(
      {
        name: 'unwinding',
        position: this.#nextPosition++,
        status: 'completed',
        output: { code: error.code, message: error.message, stopReason },
        error: null,
        startedAt: now,
        completedAt: now,
      },
      signal,
    );
  }

  async #suspendUntil(name: string, computeWakeAt: () => number): Promise<void> {
    await this.#ensureLoaded();
    this.#claimName(name);
    const existing = this.#records.get(name);
    if (existing?.status === 'completed') {
      this.#options.observer?.stepReplayed?.(this.#runInfo(), name);
      return;
    }
    if (this.#options.mode === 'replay') throw new UnwindReached(name);
    const position = existing?.position ?? this.#nextPosition++;
    const now = this.#now();
    const wakeAt = (existing?.output as SleepState | null | undefined)?.wakeAt ?? computeWakeAt();
    const startedAt = existing?.startedAt ?? now;
    if (now >= wakeAt) {
      await this.#save({
        name,
        position,
        status: 'completed',
        output: { wakeAt },
        error: null,
        startedAt,
        completedAt: now,
      });
      return;
    }
    if (existing === undefined) {
      await this.#save({
        name,
        position,
        status: 'started',
        output: { wakeAt },
        error: null,
        startedAt,
        completedAt: null,
      });
    }
    throw new StepSuspension(name, wakeAt);
  }

  #parseEvent(step: string, event: string, schema: z.ZodType, payload: JsonValue): unknown {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw coreError(
        'X_JOB_EVENT_INVALID',
        `step '${step}': the '${event}' event payload does not match the wait's schema.`,
        {
          step,
          event,
          issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), code: issue.code })),
        },
      );
    }
    return parsed.data;
  }

  #claimName(name: string): void {
    assertStepName(name);
    if (this.#seen.has(name)) {
      throw coreError(
        'X_STEP_DUPLICATE',
        `step '${name}' is called twice in one run of '${this.#options.jobName}'; step names are the replay key and must be unique.`,
        { step: name },
      );
    }
    this.#seen.add(name);
  }

  async #withStepTimeout(
    name: string,
    timeoutMs: number | undefined,
    fn: (signal: AbortSignal) => unknown,
  ): Promise<unknown> {
    this.#assertNotAborted(name);
    if (timeoutMs === undefined) return await fn(this.#options.attempt.signal);
    const controller = new AbortController();
    const attempt = this.#options.attempt.signal;
    const forward = () => controller.abort(attempt.reason);
    attempt.addEventListener('abort', forward, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = coreError('X_JOB_TIMEOUT', `step '${name}' exceeded its ${timeoutMs} ms timeout.`, {
          step: name,
          timeoutMs,
        });
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve(fn(controller.signal)), timedOut]);
    } finally {
      clearTimeout(timer);
      attempt.removeEventListener('abort', forward);
    }
  }

  async #saveFailure(
    step: { name: string; position: number; startedAt: number },
    error: unknown,
    signal: AbortState = this.#options.attempt,
  ): Promise<void> {
    if (signal.aborted) return;
    const record: JobErrorRecord = {
      code: errorCode(error) ?? 'ERROR',
      message: error instanceof Error ? error.message : String(error),
    };
    try {
      await this.#options.driver.steps.save(this.#options.fence, {
        ...step,
        status: 'failed',
        output: null,
        error: record,
        completedAt: null,
      });
    } catch {
      // Recording a failure is for `x-jobs show`; the attempt's own error is what matters.
    }
  }

  async #save(record: StepRecord, signal: AbortState = this.#options.attempt): Promise<void> {
    this.#assertNotAborted(record.name, signal);
    const landed = await this.#options.driver.steps.save(this.#options.fence, record);
    if (!landed) {
      throw coreError(
        'X_JOB_LEASE_LOST',
        `step '${record.name}' was not saved: this worker no longer holds job ${this.#options.fence.jobId} (cancelled or reclaimed).`,
        { step: record.name, jobId: this.#options.fence.jobId },
      );
    }
    this.#records.set(record.name, record);
  }

  #assertNotAborted(step: string, signal: AbortState = this.#options.attempt): void {
    if (!signal.aborted) return;
    const reason = signal.reason as unknown;
    throw coreError(
      'X_ABORTED',
      `step '${step}': the attempt was aborted (${errorCode(reason) ?? 'aborted'}); step writes are refused.`,
      {
        step,
        reason: errorCode(reason) ?? null,
      },
      reason,
    );
  }

  #now(): number {
    return this.#options.driver.now();
  }

  #runInfo(): { readonly jobId: string; readonly runId: string; readonly name: string } {
    return {
      jobId: this.#options.fence.jobId,
      runId: this.#options.fence.runId,
      name: this.#options.jobName,
    };
  }
}
