/**
 * Extra attempts a `compensates: true` job's rows carry past `retry.attempts`, so a worker that
 * crashes while unwinding on the final attempt leaves a row the claim re-offers to finish the
 * unwind. `maxAttempts = retry.attempts + UNWIND_MARGIN`; retry decisions still use `retry.attempts`.
 */
export const UNWIND_MARGIN = 2;
