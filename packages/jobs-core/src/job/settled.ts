import type { JobErrorRecord, StopReason } from '../driver/job-state.js';
import type { JsonForm } from '../values/json-form.js';

/** How a run ended, as `onSettled` sees it. */
export type SettledOutcome = 'completed' | 'failed' | 'cancelled';

/** What every `onSettled` call carries, whatever the outcome. */
interface SettledBase {
  readonly jobId: string;
  readonly runId: string;
  readonly name: string;
  /** The tenant the row belongs to, or null for `tenant: 'none'`. */
  readonly tenantId: string | null;
  /** The attempt that settled the run, 1-based. */
  readonly attempt: number;
}

/**
 * The one argument of `onSettled`, called once per ending. On `'completed'`, `result` is the JSON
 * form of what `run` returned (typed from it) and `input` is the parsed input. On `'failed'` and
 * `'cancelled'`, `input` is undefined when the stored payload no longer parses.
 */
export type Settled<Input, Result> =
  | (SettledBase & {
      readonly outcome: 'completed';
      readonly input: Input;
      readonly result: JsonForm<Result>;
      readonly code: null;
      readonly error: null;
      readonly stopReason: null;
    })
  | (SettledBase & {
      readonly outcome: 'failed';
      readonly input: Input | undefined;
      readonly result: undefined;
      /** The code of the error that dead-lettered the run. */
      readonly code: string;
      readonly error: JobErrorRecord;
      readonly stopReason: StopReason;
    })
  | (SettledBase & {
      readonly outcome: 'cancelled';
      readonly input: Input | undefined;
      readonly result: undefined;
      /** `X_JOB_LEASE_LOST` when a running attempt learned of the cancel, else null. */
      readonly code: string | null;
      readonly error: null;
      readonly stopReason: null;
    });
