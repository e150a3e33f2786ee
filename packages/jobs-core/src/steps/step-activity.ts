import { isStepSuspension, StepSuspension } from './step-suspension.js';

/**
 * The steps of one attempt that are in flight, so parallel steps (`Promise.all` over `step.run`,
 * `step.invoke`, …) end together: the executor waits for every step still running before it
 * settles the attempt — their outputs land, or their failures are recorded — and the suspensions
 * of several parallel steps are merged into one.
 */
export class StepActivity {
  #active = 0;
  #idle: (() => void)[] = [];
  #parked: StepSuspension | undefined;

  /**
   * Follows one step call: counted until it settles; a suspension it throws is remembered, and
   * `threw` hears any other rejection (before the body does).
   */
  track<T>(step: Promise<T>, threw?: (error: unknown) => void): Promise<T> {
    this.#active += 1;
    return step.then(
      (value) => {
        this.#done();
        return value;
      },
      (error: unknown) => {
        if (isStepSuspension(error)) this.#park(error);
        else threw?.(error);
        this.#done();
        throw error;
      },
    );
  }

  /** True when no step is in flight. */
  get quiet(): boolean {
    return this.#active === 0;
  }

  /** Resolves once no step is in flight (at once when none is). */
  idle(): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * The suspension the run parks on, given the one the body threw: due at the earliest wake time
   * of every step that suspended in this attempt, woken early by the first one's event (a step
   * waiting on another event is seen at its poll). `thrown` alone when it was the only one.
   */
  parkedOn(thrown: StepSuspension): StepSuspension {
    const parked = this.#parked;
    return parked === undefined || parked === thrown ? thrown : merged(parked, thrown);
  }

  #park(suspension: StepSuspension): void {
    this.#parked = this.#parked === undefined ? suspension : merged(this.#parked, suspension);
  }

  #done(): void {
    this.#active -= 1;
    if (this.#active !== 0) return;
    const waiting = this.#idle;
    this.#idle = [];
    for (const resolve of waiting) resolve();
  }
}

/** One suspension for two: the earlier wake time, the first event either waits on. */
function merged(first: StepSuspension, second: StepSuspension): StepSuspension {
  const waiting = first.waitFor !== undefined ? first : second;
  return new StepSuspension(first.step, Math.min(first.runAt, second.runAt), waiting.waitFor);
}
