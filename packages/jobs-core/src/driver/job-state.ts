/**
 * The states a job row moves through.
 *
 * - `ready`: claimable now. `delayed`: claimable once `runAt` passes.
 * - `running`: held by a claim until its lease (`leaseExpiresAt`) lapses.
 * - `suspended`: a run parked by `step.sleep` / `step.waitForEvent`; claimable once `runAt` passes.
 * - `done`, `dead`, `cancelled`: terminal.
 */
export type JobState = 'ready' | 'delayed' | 'running' | 'suspended' | 'done' | 'dead' | 'cancelled';

/** Every state, in lifecycle order. */
export const JOB_STATES: readonly JobState[] = [
  'ready',
  'delayed',
  'running',
  'suspended',
  'done',
  'dead',
  'cancelled',
];

/** The live states: at most one row per `(name, tenantId, idempotencyKey)` may be in one of these. */
export const LIVE_JOB_STATES: readonly JobState[] = ['ready', 'delayed', 'running', 'suspended'];

/** True for `ready`, `delayed`, `running` and `suspended`. */
export function isLiveState(state: JobState): boolean {
  return state === 'ready' || state === 'delayed' || state === 'running' || state === 'suspended';
}

/** Why a row was dead-lettered: the error said so, or the attempts ran out. */
export type StopReason = 'terminal' | 'attempts-exhausted';

/** The last error an attempt recorded on the row: a code and a message, never a stack or payload values. */
export interface JobErrorRecord {
  /** The thrown error's code, or `'ERROR'` for an error without one. */
  readonly code: string;
  /** The thrown error's message. */
  readonly message: string;
  /**
   * The W3C `traceparent` of the job span of the attempt that recorded this error, when that
   * attempt was traced: the next attempt's span links to it. A driver stores it as it stores the
   * rest of the record.
   */
  readonly traceparent?: string;
}
