import type { z } from 'zod';
import type { Duration } from '../values/duration.js';
import type { JsonObject } from '../values/json.js';
import type { JsonForm } from '../values/json-form.js';
import type { AnyJobHandle, EnqueueInputOf, JobResultOf } from './job-handle.js';
import type { COMPENSATE_STEP_PREFIX, UNWINDING_STEP } from './step-name.js';

/**
 * Step names the executor keeps for itself: `unwinding` marks a run that is compensating, and
 * `compensate:<name>` is the durable step that undoes `<name>`. A body may not use them.
 */
export type ReservedStepName = typeof UNWINDING_STEP | `${typeof COMPENSATE_STEP_PREFIX}${string}`;

/**
 * Refuses a reserved name where the compiler can see it: `name: N & StepNameCheck<N>` is `never`
 * for `'unwinding'` and `` `compensate:${string}` ``, so the call does not compile.
 */
export type StepNameCheck<N extends string> = N extends ReservedStepName ? never : unknown;

/** What `step.run` answers: the JSON form of the value it persisted, on the first run and on replay alike. */
export type StepOutput<T> = JsonForm<T>;

/** What a compensator receives besides the step's output. */
export interface CompensateContext {
  /** Aborted when the unwinding attempt is cancelled, drained or times out. */
  readonly signal: AbortSignal;
}

/**
 * `compensate` is allowed only when the definition says `compensates: true`; otherwise the option
 * is typed `never` (and a JavaScript caller is refused at run time).
 */
export type StepCompensateOption<T, Compensates extends boolean> = [Compensates] extends [false]
  ? {
      /** Needs `compensates: true` on the job definition. */
      readonly compensate?: never;
    }
  : {
      /**
       * Undoes the step if the run fails for good (never on a retry, cancel, drain or suspension).
       * Compensators run last-in first-out, each as its own durable step `compensate:<name>`.
       */
      readonly compensate?: (output: StepOutput<T>, context: CompensateContext) => unknown;
    };

/** Options of one `step.run`. */
export type StepRunOptions<T, Compensates extends boolean = false> = {
  /**
   * At most once: `started` is persisted before `fn` runs, so a replay that finds `started`
   * without `completed` is terminal `X_STEP_OUTCOME_UNKNOWN` until an operator resolves it.
   * (Default: false)
   */
  readonly once?: boolean;
  /** This step's ceiling: aborts `fn`'s signal, then fails the step. (Default: the job's `stepTimeout`) */
  readonly timeout?: Duration;
} & StepCompensateOption<T, Compensates>;

/** Options of `step.waitForEvent`. */
export interface WaitForEventOptions<Schema extends z.ZodType> {
  /** Parses the payload; a payload it refuses is terminal `X_JOB_EVENT_INVALID`. Required. */
  readonly schema: Schema;
  /** Only events whose payload contains this object (JSON containment). */
  readonly match?: JsonObject;
  /** How long to wait before answering `null`. */
  readonly timeout: Duration;
}

/** Options of `step.invoke`. */
export interface InvokeOptions {
  /** Cancelling the parent (`cancelJob`) cancels this child while the parent waits on it. (Default: true) */
  readonly cancelWithParent?: boolean;
  /** The child's priority. (Default: the child job's) */
  readonly priority?: number;
}

/**
 * The durable steps of a run. Step names are the replay key: deterministic, unique in the run
 * (a duplicate is `X_STEP_DUPLICATE`), and never a {@link ReservedStepName}. Suspending calls
 * (`sleep`, `sleepUntil`, `waitForEvent`) park the run without holding a process and burn no attempt.
 */
export interface StepApi<Compensates extends boolean = false> {
  /**
   * Runs `fn` once ever: its output is persisted before the next step starts, and the call answers
   * that persisted JSON form. On replay the stored output is answered without calling `fn`.
   * A value JSON cannot hold (bigint, a cycle) is terminal `X_STEP_OUTPUT_UNSERIALIZABLE`.
   */
  run<T, const N extends string>(
    name: N & StepNameCheck<N>,
    fn: (signal: AbortSignal) => T | Promise<T>,
    options?: StepRunOptions<T, Compensates>,
  ): Promise<StepOutput<T>>;
  /** Suspends the run for `duration`; the run is requeued for the wake time. */
  sleep<const N extends string>(name: N & StepNameCheck<N>, duration: Duration): Promise<void>;
  /** Suspends the run for `duration`, under a step name derived from the duration. */
  sleep(duration: Duration): Promise<void>;
  /** Suspends the run until `date` (a `Date` or epoch ms). */
  sleepUntil<const N extends string>(name: N & StepNameCheck<N>, date: Date | number): Promise<void>;
  /**
   * Suspends until `publishEvent(event, payload)` publishes a payload matching `options.match`;
   * answers it parsed by `options.schema`, or `null` once `options.timeout` passes.
   */
  waitForEvent<Schema extends z.ZodType, const N extends string>(
    name: N & StepNameCheck<N>,
    event: string,
    options: WaitForEventOptions<Schema>,
  ): Promise<z.output<Schema> | null>;
  /**
   * Runs `child` as a job of its own and answers its result in JSON form. The child is enqueued
   * once per invocation (its id recorded before the enqueue, its idempotency key derived from this
   * run and the step name), and the run suspends without holding a slot until the child settles.
   * A dead child throws its failure (`ChildJobError`, the child's code; terminal when the child
   * stopped for good, retryable when its attempts ran out — the next attempt invokes a new child);
   * a cancelled one throws `X_JOB_CHILD_CANCELLED`.
   */
  invoke<Child extends AnyJobHandle, const N extends string>(
    name: N & StepNameCheck<N>,
    child: Child,
    input: EnqueueInputOf<Child>,
    options?: InvokeOptions,
  ): Promise<JsonForm<JobResultOf<Child>>>;
}
