/**
 * Thrown by `step.sleep` / `step.waitForEvent` to park the run: control flow, not a failure. It
 * deliberately does not extend `Error`, so an app's `catch (e) { if (e instanceof Error) … }`
 * and the retry path never mistake it for one; the executor turns it into a `suspend` nack that
 * burns no attempt.
 */
export class StepSuspension {
  /** The step that suspended. */
  readonly step: string;
  /** Epoch ms at which the run is due again. */
  readonly runAt: number;
  /** The event whose publish wakes the run early, for waits. */
  readonly waitFor: string | undefined;

  /**
   * `waitFor` is handed to the driver's suspend, which makes the run due at once when that event
   * was published since the attempt started (the race between the wait's look and its suspend).
   */
  constructor(step: string, runAt: number, waitFor?: string) {
    this.step = step;
    this.runAt = runAt;
    this.waitFor = waitFor;
  }
}

/** True for a {@link StepSuspension}. */
export function isStepSuspension(value: unknown): value is StepSuspension {
  return value instanceof StepSuspension;
}
