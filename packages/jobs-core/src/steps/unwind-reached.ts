/**
 * Thrown inside a replay-only pass (an unwinding run replaying to collect its compensators) at the
 * first step that is not completed: everything before it has been seen. Control flow, not a failure.
 */
export class UnwindReached {
  readonly step: string;
  constructor(step: string) {
    this.step = step;
  }
}
