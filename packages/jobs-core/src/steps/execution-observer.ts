/**
 * Hooks into one execution, for test harnesses and tracing: which steps ran their fn and which
 * replayed from storage. Never changes what the executor does.
 */
export interface ExecutionObserver {
  /** A step's fn was called (a real execution, not a replay). */
  stepExecuted?(
    run: { readonly jobId: string; readonly runId: string; readonly name: string },
    step: string,
  ): void;
  /** A step answered its stored output without calling fn. */
  stepReplayed?(
    run: { readonly jobId: string; readonly runId: string; readonly name: string },
    step: string,
  ): void;
}
