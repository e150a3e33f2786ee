import type { JobRunContext } from './job-context.js';
import type { StepApi } from './step-api.js';

/** What a job's `run` receives. `Compensates` is the definition's `compensates` flag. */
export interface RunArgs<Input, Compensates extends boolean = false> {
  /** The input, parsed by the definition's schema. */
  readonly input: Input;
  /** The durable steps of this run. */
  readonly step: StepApi<Compensates>;
  /** The app's context plus this run's signal, actor and ids. */
  readonly ctx: JobRunContext;
  /**
   * True when a failure of this attempt will not be retried for want of attempts: the same
   * comparison the executor dead-letters on.
   */
  readonly finalAttempt: boolean;
  /** Persists progress on the row (`x-jobs show`); `total` is optional. */
  progress(current: number, total?: number): void;
}
