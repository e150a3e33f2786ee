import type { ReplayStepKind } from './step-kind.js';

/** The step a body asked for, or the one the history recorded, at one point of a replay check. */
export interface ReplayStepRef {
  /** The step's name (an unnamed `sleep(duration)` is `sleep:<duration>`, as the runner names it). */
  readonly name: string;
  /** What kind of step it is (for a recorded step: the kinds its record admits, joined by `|`). */
  readonly kind: ReplayStepKind | string;
}

/** Where a run's current code parts from its recorded history. */
export interface ReplayDivergence {
  /** The 0-based place in the run's recorded order. */
  readonly position: number;
  /** What the history recorded there (null: the code asked for a step where the history has none it replays). */
  readonly recorded: ReplayStepRef | null;
  /** What the code asks for there (null: the code finished before reaching the recorded step). */
  readonly asked: ReplayStepRef | null;
  /** One sentence saying how they differ. */
  readonly reason: string;
}

/**
 * The verdict on one run, with `replayed`: how many step calls were answered from the history
 * before the verdict (calls in flight together — a fan-out — are compared when called and
 * answered one at a time, so a divergence inside a fan-out can come before its siblings were
 * answered):
 * - `matches`: every step the code called, in call order, is the one recorded at that position,
 *   up to where the replay stops (a step without a completed record, the end of the history) or
 *   the body returned;
 * - `diverges`: the first point where name, order or kind differ (`divergence`);
 * - `failed`: the body threw (outside any step), its input no longer parses, or it did not reach
 *   the end of its history in time — the run could not be checked (`error`).
 */
export type ReplayCheckResult =
  | { readonly status: 'matches'; readonly replayed: number }
  | { readonly status: 'diverges'; readonly replayed: number; readonly divergence: ReplayDivergence }
  | {
      readonly status: 'failed';
      readonly replayed: number;
      readonly error: { readonly code: string; readonly message: string };
    };
