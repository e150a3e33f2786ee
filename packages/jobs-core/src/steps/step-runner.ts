import { context as otelContext } from '@opentelemetry/api';
import type { z } from 'zod';
import type { JobErrorRecord } from '../driver/job-state.js';
import type { StepRecord } from '../driver/step-store.js';
import { coreError } from '../errors/core-error.js';
import type { AnyJobHandle } from '../job/job-handle.js';
import type { InvokeOptions } from '../job/step-api.js';
import { COMPENSATE_STEP_PREFIX, UNWINDING_STEP } from '../job/step-name.js';
import { inSpan } from '../telemetry/job-tracing.js';
import { parseDuration } from '../values/duration.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { persistableJsonForm } from './json-form.js';
import { placeOf, replayOrStart } from './replay-or-start.js';
import { StepActivity } from './step-activity.js';
import { invokeStep } from './step-invoke.js';
import { StepLedger, type StepRunnerOptions } from './step-ledger.js';
import { sleepStep } from './step-sleep.js';
import { waitStep } from './step-wait.js';

/** A completed step whose `compensate` option registered an undo. */
export interface PendingCompensation {
  readonly step: string;
  readonly output: JsonValue;
  readonly compensate: (output: never, context: { readonly signal: AbortSignal }) => unknown;
}

/** The options of one `step.run`, as the step API passes them. */
interface RunStepOptions {
  readonly once?: boolean;
  readonly timeout?: unknown;
  readonly compensate?: PendingCompensation['compensate'];
}

/**
 * The durable step API of one attempt. Every write is refused once the attempt's signal is aborted
 * (`X_ABORTED`), and every write is fenced on the claim (a refused write is `X_JOB_LEASE_LOST`).
 * `sleep` lives in `step-sleep.ts`, `waitForEvent` in `step-wait.ts`, `invoke` in `step-invoke.ts`,
 * the writes in `step-ledger.ts`; every kind replays through `replay-or-start.ts`.
 */
export class StepRunner {
  readonly #ledger: StepLedger;
  readonly #compensations: PendingCompensation[] = [];
  /** The body's step calls in flight (parallel steps end together; see `step-activity`). */
  readonly activity = new StepActivity();

  constructor(options: StepRunnerOptions) {
    this.#ledger = new StepLedger(options);
  }

  /** Compensations registered so far, in completion order (unwind them last-in first-out). */
  get compensations(): readonly PendingCompensation[] {
    return this.#compensations;
  }

  /** The record persisted under `name`, if any. */
  record(name: string): StepRecord | undefined {
    return this.#ledger.record(name);
  }

  /** `step.run`. */
  async run(
    name: string,
    fn: (signal: AbortSignal) => unknown,
    options: RunStepOptions = {},
  ): Promise<JsonValue> {
    const ledger = this.#ledger;
    return replayOrStart(ledger, name, {
      check: () => {
        if (options.compensate !== undefined && !ledger.options.compensates) {
          throw coreError(
            'X_JOB_DECLARATION_INVALID',
            `step '${name}' passes compensate, but job '${ledger.options.jobName}' does not declare compensates: true.`,
            { field: 'compensates', step: name },
          );
        }
      },
      replay: (existing) => {
        if (options.compensate !== undefined) {
          this.#compensations.push({ step: name, output: existing.output, compensate: options.compensate });
        }
        return existing.output;
      },
      start: (existing) => this.#start(name, fn, options, existing),
    });
  }

  /** Runs `step.run`'s function (or refuses a once-step whose outcome is unknown) and records it. */
  async #start(
    name: string,
    fn: (signal: AbortSignal) => unknown,
    options: RunStepOptions,
    existing: StepRecord | undefined,
  ): Promise<JsonValue> {
    const ledger = this.#ledger;
    if (existing?.status === 'started' && options.once === true) {
      throw coreError(
        'X_STEP_OUTCOME_UNKNOWN',
        `once-step '${name}' started and never recorded completion: it may or may not have run. Resolve it with x-jobs resolve-step, then retry the job.`,
        { step: name },
      );
    }
    const { position, startedAt } = placeOf(ledger, existing);
    if (options.once === true) {
      await ledger.save({
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
        ? ledger.options.stepTimeoutMs
        : parseDuration(options.timeout, `step '${name}' timeout`);
    const output = await inSpan(
      `step ${name}`,
      otelContext.active(),
      () => ({ 'x_jobs.step': name }),
      async () => {
        let value: unknown;
        try {
          ledger.assertNotAborted(name); // refused before fn runs: not an execution
          ledger.executed(name);
          value = await this.#withStepTimeout(name, timeoutMs, fn);
        } catch (error) {
          await ledger.saveFailure({ name, position, startedAt }, error);
          throw error;
        }
        return persistableJsonForm(value, `step '${name}'`);
      },
    );
    await ledger.save({
      name,
      position,
      status: 'completed',
      output,
      error: null,
      startedAt,
      completedAt: ledger.now(),
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
    await sleepStep(this.#ledger, name, () => this.#ledger.now() + ms);
  }

  /** `step.sleepUntil(name, date)`. */
  async sleepUntil(name: string, date: Date | number): Promise<void> {
    const wakeAt = typeof date === 'number' ? date : date.getTime();
    if (!Number.isFinite(wakeAt)) {
      throw coreError('X_DURATION_INVALID', `step.sleepUntil('${name}'): not a valid date.`, { step: name });
    }
    await sleepStep(this.#ledger, name, () => wakeAt);
  }

  /** `step.waitForEvent(name, event, { schema, match, timeout })`. */
  waitForEvent(
    name: string,
    event: string,
    options: { readonly schema: z.ZodType; readonly match?: JsonObject; readonly timeout: unknown },
  ): Promise<unknown> {
    return waitStep(this.#ledger, name, event, options);
  }

  /** `step.invoke(name, child, input, options)`: see `step-invoke`. */
  invoke(name: string, child: AnyJobHandle, input: unknown, options?: InvokeOptions): Promise<JsonValue> {
    return invokeStep(this.#ledger, name, child, input, options);
  }

  /**
   * Runs one compensator as the durable step `compensate:<step>`; a completed one is skipped.
   * `signal` is the unwind's own: the body's timeout does not abort it, a drain or a lost lease does.
   */
  async compensate(pending: PendingCompensation, signal: AbortSignal): Promise<void> {
    const ledger = this.#ledger;
    const name = `${COMPENSATE_STEP_PREFIX}${pending.step}`;
    await replayOrStart(
      ledger,
      name,
      {
        replay: () => undefined,
        start: async (existing) => {
          const { position, startedAt } = placeOf(ledger, existing);
          ledger.executed(name);
          let value: unknown;
          try {
            value = await pending.compensate(pending.output as never, { signal });
          } catch (error) {
            await ledger.saveFailure({ name, position, startedAt }, error, signal);
            throw error;
          }
          const output = persistableJsonForm(value, `compensator of '${pending.step}'`);
          await ledger.save(
            {
              name,
              position,
              status: 'completed',
              output,
              error: null,
              startedAt,
              completedAt: ledger.now(),
            },
            signal,
          );
        },
      },
      'core',
    );
  }

  /**
   * Writes the `unwinding` marker: from here on every attempt of this run unwinds. `signal` as for
   * {@link compensate}.
   */
  async markUnwinding(error: JobErrorRecord, stopReason: string, signal: AbortSignal): Promise<void> {
    const ledger = this.#ledger;
    await ledger.loaded();
    if (ledger.record(UNWINDING_STEP) !== undefined) return;
    const now = ledger.now();
    await ledger.save(
      {
        name: UNWINDING_STEP,
        position: ledger.nextPosition(),
        status: 'completed',
        output: { code: error.code, message: error.message, stopReason },
        error: null,
        startedAt: now,
        completedAt: now,
      },
      signal,
    );
  }

  async #withStepTimeout(
    name: string,
    timeoutMs: number | undefined,
    fn: (signal: AbortSignal) => unknown,
  ): Promise<unknown> {
    const attemptAbort = this.#ledger.options.attempt;
    this.#ledger.assertNotAborted(name);
    if (timeoutMs === undefined) return await fn(attemptAbort.signal);
    const controller = new AbortController();
    const attempt = attemptAbort.signal;
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
}
