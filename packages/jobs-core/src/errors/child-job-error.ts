import { JobsError } from './jobs-error.js';

/**
 * What `step.invoke` throws when the child job it waits on did not finish with a result: the
 * child's own failure code (`lastError.code` of its dead row, or `X_JOB_CHILD_CANCELLED`), and the
 * child's verdict on it. The retry decision of the parent honours `verdict` before any code
 * classification: a child dead-lettered `terminal` (or cancelled) fails the parent for good; a
 * child whose attempts ran out is `retryable`, and the parent's next attempt invokes a new child.
 */
export class ChildJobError extends JobsError {
  /** `'terminal'` when the child stopped for good on its error or was cancelled, else `'retryable'`. */
  readonly verdict: 'terminal' | 'retryable';

  constructor(
    code: string,
    message: string,
    verdict: 'terminal' | 'retryable',
    meta: Record<string, unknown>,
  ) {
    super(code, message, { meta });
    this.name = 'ChildJobError';
    this.verdict = verdict;
  }
}
