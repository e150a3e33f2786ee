import type { StepRecord } from '../driver/step-store.js';
import type { StepLedger } from './step-ledger.js';
import { UnwindReached } from './unwind-reached.js';

/** How one step kind (`run`, `sleep`, `waitForEvent`, `invoke`, a compensator) replays and starts. */
export interface StepKind<T> {
  /** Option checks that fail the step on replay too; run once the name is claimed, before any replay. */
  readonly check?: () => void;
  /** The answer of the step's `completed` record: what the body sees on every replay. */
  replay(record: StepRecord): T | Promise<T>;
  /**
   * Runs the step, or resumes it: `existing` is its `started` or `failed` record from an earlier
   * attempt, if any. Called only in `'run'` mode (and for core's own steps).
   */
  start(existing: StepRecord | undefined): Promise<T>;
}

/**
 * Whose step it is. `'body'`: a step the job body calls, whose name is claimed (checked, and unique
 * in the run) and which a replay-only attempt stops at. `'core'`: a step core writes under a
 * reserved name (`compensate:<step>`), neither claimed nor stopped at while the run unwinds.
 */
export type StepOwner = 'body' | 'core';

/**
 * The step replay protocol, written once for every step kind: load the run's records, claim the
 * name (`X_STEP_DUPLICATE`, the step-name rule), run the kind's checks, answer a `completed`
 * record by replaying it (reported to the observer), stop at the first step not completed when the
 * attempt only replays (it throws {@link UnwindReached}), else start the step.
 */
export async function replayOrStart<T>(
  ledger: StepLedger,
  name: string,
  kind: StepKind<T>,
  owner: StepOwner = 'body',
): Promise<T> {
  await ledger.loaded();
  if (owner === 'body') {
    ledger.claimName(name);
    kind.check?.();
  }
  const existing = ledger.record(name);
  if (existing?.status === 'completed') {
    ledger.replayed(name);
    return kind.replay(existing);
  }
  if (owner === 'body' && ledger.options.mode === 'replay') throw new UnwindReached(name);
  return kind.start(existing);
}

/** Where a step that starts (or resumes) sits: its earlier record's position and start, else new ones. */
export interface StepPlace {
  readonly position: number;
  readonly startedAt: number;
}

/**
 * The place of a starting step: an earlier `started`/`failed` record keeps its position and start
 * time; a new step takes the next position and `now` (the driver's clock when not given).
 */
export function placeOf(ledger: StepLedger, existing: StepRecord | undefined, now?: number): StepPlace {
  return {
    position: existing?.position ?? ledger.nextPosition(),
    startedAt: existing?.startedAt ?? now ?? ledger.now(),
  };
}
