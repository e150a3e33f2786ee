import type { StepRecord } from '../driver/step-store.js';
import { COMPENSATE_STEP_PREFIX, UNWINDING_STEP } from '../job/step-name.js';
import type { ReplayDivergence, ReplayStepRef } from './replay-check-result.js';
import { kindsOf, type ReplayStepKind } from './step-kind.js';

/** A step call of the body, as the check sees it. */
export type AskedStep = ReplayStepRef & { readonly kind: ReplayStepKind };

/**
 * What the history says of one step call:
 * - `replay`: its completed record, whose output answers the call;
 * - `stop`: the run goes no further here (the step is parked — a sleep, wait or invoke whose
 *   child has not finished — or failed, to run again, or the history ends): the call never answers;
 * - `diverges`: the call is not the one recorded at its position.
 */
export type HistoryAnswer =
  | { readonly kind: 'replay'; readonly record: StepRecord }
  | { readonly kind: 'stop' }
  | { readonly kind: 'diverges'; readonly divergence: ReplayDivergence };

/**
 * A run's recorded steps in position order, and the next position a call takes. Positions are
 * what the executor gives a step when it is **called** (call order, whatever order parallel steps
 * finish in), so the n-th call the body makes is compared with the n-th recorded position: its
 * name, then its kind. Compensation records and the unwinding marker are the executor's, not
 * calls of the body, and are left out.
 */
export class ReplayHistory {
  readonly steps: readonly StepRecord[];
  #next = 0;

  constructor(steps: readonly StepRecord[]) {
    this.steps = steps
      .filter((step) => step.name !== UNWINDING_STEP && !step.name.startsWith(COMPENSATE_STEP_PREFIX))
      .sort((a, b) => a.position - b.position);
  }

  /** Compares the body's next step call with the record at the next position. */
  compare(asked: AskedStep): HistoryAnswer {
    const position = this.#next;
    const recorded = this.steps[position];
    if (recorded === undefined) return { kind: 'stop' };
    const recordedRef = refOf(recorded);
    if (recorded.name !== asked.name) {
      const elsewhere = this.steps.findIndex((step) => step.name === asked.name);
      const reason =
        elsewhere === -1
          ? `asks for step '${asked.name}' where the history recorded '${recorded.name}' (another name)`
          : `asks for step '${asked.name}' where the history recorded '${recorded.name}' ('${asked.name}' was recorded at position ${elsewhere}: another order)`;
      return { kind: 'diverges', divergence: { position, recorded: recordedRef, asked, reason } };
    }
    if (!kindsOf(recorded).includes(asked.kind)) {
      const reason = `asks for '${asked.name}' as a ${asked.kind} step; the history recorded it as ${recordedRef.kind} (another kind)`;
      return { kind: 'diverges', divergence: { position, recorded: recordedRef, asked, reason } };
    }
    this.#next += 1;
    return recorded.status === 'completed' ? { kind: 'replay', record: recorded } : { kind: 'stop' };
  }

  /** The divergence of a body that returned: the first recorded step it never asked for, if any. */
  unasked(): ReplayDivergence | undefined {
    const next = this.steps[this.#next];
    if (next === undefined) return undefined;
    return {
      position: this.#next,
      recorded: refOf(next),
      asked: null,
      reason: `the code finishes without asking for recorded step '${next.name}'`,
    };
  }
}

function refOf(record: StepRecord): ReplayStepRef {
  return { name: record.name, kind: kindsOf(record).join('|') };
}
