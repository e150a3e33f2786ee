import type { Span } from '@opentelemetry/api';
import type { ClaimedJob } from '../driver/claim.js';
import type { JobDriver } from '../driver/job-driver.js';
import type { LeaseGrant } from '../driver/lease-store.js';
import type { ResolvedJobDefinition } from '../job/definition-of.js';
import type { StepRunner } from '../steps/step-runner.js';
import { AttemptStop } from './attempt-stop.js';
import type { ExecutionSettings } from './execution-settings.js';
import type { ProgressWriter } from './progress-writer.js';
import type { ThrownBySteps } from './thrown-by-step.js';

/**
 * The state one attempt's phases share: the claimed row, what admission learned, the fleet slot,
 * the stop state and the lazily built step runner and progress writer. Plain data: each phase is
 * a function of it, and only the phase named on a field writes it.
 */
export class AttemptScope {
  readonly settings: ExecutionSettings;
  readonly driver: JobDriver;
  readonly job: ClaimedJob;
  readonly stop = new AttemptStop();
  /**
   * `performance.now()` when the execution began: `job_duration_seconds` is measured from it (0
   * when the worker records no metrics: nothing reads it then).
   */
  readonly began: number;
  /** Set by admission (undefined for a job this worker does not know). */
  definition: ResolvedJobDefinition | undefined;
  /** The parsed input, once admission parsed it. */
  input: unknown;
  inputParsed = false;
  /** True once this attempt is counted: by the claim (`ClaimedJob.started`) or the start phase (`attempt-start.ts`). */
  started: boolean;
  /**
   * A start sent but not answered yet while the body already runs (`overlapsStart`): the decide
   * phase waits for it, so no settle leaves before the attempt's count lands. Written by the start
   * phase only (`attempt-start.ts`, including `abandonStartLanding`).
   */
  startLanding: Promise<void> | undefined;
  /** The overlapped start threw (start phase): the attempt is counted before its settle instead. */
  startFailed = false;
  /** The fleet slot held (fleet-slot phase), renewed by the lease keeper. */
  slot: LeaseGrant | null = null;
  /** Built on the first step the body reaches (run-body phase), or up front for an unwinding run. */
  runner: StepRunner | undefined;
  /** A body a stop left running (timeout, lost lease or slot): settles when it finally ends. */
  lingering: Promise<void> | undefined;
  /** Built on the body's first `progress` call. */
  progress: ProgressWriter | undefined;
  /**
   * The `traceparent` of this attempt's job span, when it is traced: stamped on the error a retry
   * or dead-letter records. Written by the executor when it opens the span (`traceWith`).
   */
  traceparent: string | undefined;
  /** This attempt's job span, when it is traced: a failed attempt records its exception on it. */
  span: Span | undefined;
  /** Which step threw what (the step API notes every rejected call), built on the first. */
  thrownBy: ThrownBySteps | undefined;

  constructor(settings: ExecutionSettings, job: ClaimedJob) {
    this.settings = settings;
    this.driver = settings.driver;
    this.job = job;
    this.started = job.started === true;
    this.began = settings.metrics === undefined ? 0 : performance.now();
  }

  /** The fields every log line of this attempt carries. */
  logFields(): Record<string, unknown> {
    const job = this.job;
    return { jobId: job.id, name: job.name, queue: job.queue, attempt: job.attempt };
  }
}
