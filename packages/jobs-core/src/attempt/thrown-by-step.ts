import { isStepSuspension } from '../steps/step-suspension.js';
import { UnwindReached } from '../steps/unwind-reached.js';

/** How many step failures an attempt remembers (parallel steps: the newest are kept). */
const REMEMBERED = 32;
/** How deep into a `cause` chain the step that threw is looked for. */
const CAUSE_DEPTH = 9;

/**
 * Which durable step threw what, within one attempt: every step call (`run`, `sleep`,
 * `waitForEvent`, `invoke`) that rejects notes its error here, so the attempt's failure record can
 * name the step — when the body let that error through, or threw one whose `cause` chain holds it.
 */
export class ThrownBySteps {
  readonly #noted: { readonly step: string; readonly error: unknown }[] = [];

  /** Notes that step `step` threw `error` (a suspension or an unwind is control flow: not noted). */
  note(step: string, error: unknown): void {
    if (isStepSuspension(error) || error instanceof UnwindReached) return;
    if (this.#noted.length === REMEMBERED) this.#noted.shift();
    this.#noted.push({ step, error });
  }

  /** The step that threw `error` or a link of its `cause` chain (the outermost wins), else null. */
  stepOf(error: unknown): string | null {
    const seen = new Set<unknown>();
    let link = error;
    for (let depth = 0; depth < CAUSE_DEPTH && !seen.has(link); depth++) {
      seen.add(link);
      for (let i = this.#noted.length - 1; i >= 0; i--) {
        const noted = this.#noted[i] as { step: string; error: unknown };
        if (Object.is(noted.error, link)) return noted.step;
      }
      if (link === null || typeof link !== 'object') return null;
      try {
        link = (link as { cause?: unknown }).cause;
      } catch {
        return null;
      }
    }
    return null;
  }
}
