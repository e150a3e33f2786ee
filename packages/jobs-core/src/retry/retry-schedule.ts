import { type ResolvedRetryPolicy, type RetryPolicy, resolveRetryPolicy } from './retry-policy.js';

/**
 * The wait after failed attempt `failedAttempt` (1-based), before the next one: `delay·2^(n-1)`
 * (exponential), `delay·n` (linear) or `delay` (fixed), capped at `maxDelay`; with jitter, drawn
 * uniformly from `[d/2, d)` ("equal jitter") using `random` (a `Math.random`-like source).
 */
export function backoffDelay(
  policy: ResolvedRetryPolicy,
  failedAttempt: number,
  random: () => number,
): number {
  const n = Math.max(1, failedAttempt);
  const base =
    policy.backoff === 'exponential'
      ? policy.delay * 2 ** (n - 1)
      : policy.backoff === 'linear'
        ? policy.delay * n
        : policy.delay;
  const capped = Math.min(base, policy.maxDelay);
  return Math.round(policy.jitter ? capped / 2 + random() * (capped / 2) : capped);
}

/**
 * The waits between a policy's attempts: `attempts - 1` entries, in ms. With jitter off,
 * `retrySchedule({ attempts: 5, backoff: 'exponential', delay: 1000, jitter: false })` is
 * `[1000, 2000, 4000, 8000]`; with jitter on (the default) each entry is drawn from `[d/2, d)`.
 * An invalid policy is `X_JOB_DECLARATION_INVALID`; attempts stop at 1,000, so the schedule holds at
 * most 999 entries (`retrySchedule({ attempts: 1e9 })` is refused, not an out-of-memory).
 */
export function retrySchedule(policy: RetryPolicy = {}, random: () => number = Math.random): number[] {
  const resolved = resolveRetryPolicy(policy);
  return Array.from({ length: resolved.attempts - 1 }, (_, index) =>
    backoffDelay(resolved, index + 1, random),
  );
}
