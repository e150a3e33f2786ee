import type { JobDriver } from '../driver/job-driver.js';
import type { JobErrorRecord } from '../driver/job-state.js';
import type { StepFence, StepRecord } from '../driver/step-store.js';
import { coreError } from '../errors/core-error.js';
import { errorCode } from '../errors/jobs-error.js';
import { assertStepName } from '../job/step-name.js';
import type { ExecutionObserver } from './execution-observer.js';
import { recordOf } from './failure.js';
import type { LazyAbort } from './lazy-abort.js';

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
  /** The claimed row's `runAt`: when it was made due (tells a `promote` of a sleep, see `step-sleep`). */
  readonly dueAt: number;
}

/** What a write checks before it lands: an `AbortSignal` or a {@link LazyAbort}. */
export type AbortState = { readonly aborted: boolean; readonly reason: unknown };

/** Which run a step belongs to, for the observer. */
export interface StepRunInfo {
  readonly jobId: string;
  readonly runId: string;
  readonly name: string;
}

/**
 * The persisted steps of one attempt: the records the run stored, the names this attempt used,
 * and the fenced writes. Every write is refused once the attempt's signal is aborted (`X_ABORTED`)
 * and lands only under the claim (a refused write is `X_JOB_LEASE_LOST`).
 */
export class StepLedger {
  readonly options: StepRunnerOptions;
  #records = new Map<string, StepRecord>();
  #loading: Promise<void> | undefined;
  readonly #seen = new Set<string>();
  #nextPosition = 0;

  constructor(options: StepRunnerOptions) {
    this.options = options;
    const records = options.records;
    if (typeof records !== 'function') {
      this.#adopt(records);
      this.#loading = Promise.resolve();
    }
  }

  /** Loads the run's records once (a no-op when they were given up front). */
  loaded(): Promise<void> {
    if (this.#loading === undefined) {
      const load = this.options.records as () => Promise<readonly StepRecord[]>;
      this.#loading = load().then((records) => this.#adopt(records));
    }
    return this.#loading;
  }

  #adopt(records: readonly StepRecord[]): void {
    this.#records = new Map(records.map((record) => [record.name, record]));
    this.#nextPosition = records.reduce((max, record) => Math.max(max, record.position + 1), 0);
  }

  /** The record persisted under `name`, if any. */
  record(name: string): StepRecord | undefined {
    return this.#records.get(name);
  }

  /** The position of a new step. */
  nextPosition(): number {
    return this.#nextPosition++;
  }

  /** Checks `name` is allowed and not used twice in this run (`X_STEP_DUPLICATE`). */
  claimName(name: string): void {
    assertStepName(name);
    if (this.#seen.has(name)) {
      throw coreError(
        'X_STEP_DUPLICATE',
        `step '${name}' is called twice in one run of '${this.options.jobName}'; step names are the replay key and must be unique.`,
        { step: name },
      );
    }
    this.#seen.add(name);
  }

  /** Persists `record`, fenced on the claim; refused once `signal` is aborted. */
  async save(record: StepRecord, signal: AbortState = this.options.attempt): Promise<void> {
    this.assertNotAborted(record.name, signal);
    const landed = await this.options.driver.steps.save(this.options.fence, record);
    if (!landed) {
      throw coreError(
        'X_JOB_LEASE_LOST',
        `step '${record.name}' was not saved: this worker no longer holds job ${this.options.fence.jobId} (cancelled or reclaimed).`,
        { step: record.name, jobId: this.options.fence.jobId },
      );
    }
    this.#records.set(record.name, record);
  }

  /** Records a step's failure for `x-jobs show`, best effort (the attempt's own error is what matters). */
  async saveFailure(
    step: { name: string; position: number; startedAt: number },
    error: unknown,
    signal: AbortState = this.options.attempt,
  ): Promise<void> {
    if (signal.aborted) return;
    const record: JobErrorRecord = recordOf(error);
    try {
      await this.options.driver.steps.save(this.options.fence, {
        ...step,
        status: 'failed',
        output: null,
        error: record,
        completedAt: null,
      });
    } catch {
      // Best effort, as documented.
    }
  }

  /** Throws `X_ABORTED` (caused by the abort's reason) once `signal` is aborted. */
  assertNotAborted(step: string, signal: AbortState = this.options.attempt): void {
    if (!signal.aborted) return;
    const reason = signal.reason as unknown;
    throw coreError(
      'X_ABORTED',
      `step '${step}': the attempt was aborted (${errorCode(reason) ?? 'aborted'}); step writes are refused.`,
      { step, reason: errorCode(reason) ?? null },
      reason,
    );
  }

  /** The driver's clock. */
  now(): number {
    return this.options.driver.now();
  }

  /** A replayed step, for the observer. */
  replayed(step: string): void {
    this.options.observer?.stepReplayed?.(this.runInfo(), step);
  }

  /** An executed step, for the observer. */
  executed(step: string): void {
    this.options.observer?.stepExecuted?.(this.runInfo(), step);
  }

  runInfo(): StepRunInfo {
    return { jobId: this.options.fence.jobId, runId: this.options.fence.runId, name: this.options.jobName };
  }
}
