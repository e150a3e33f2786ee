import { errorRetryClass } from './error-retry.js';
import type { RetryDecision } from './retry-decision.js';
import type { RetryPolicy } from './retry-policy.js';
import { resolveRetryPolicy } from './retry-policy.js';
import { backoffDelay } from './retry-schedule.js';

/** The facts {@link decideRetry} decides on. */
export interface DecideRetryInput {
  /** The job's policy (declared or resolved). */
  readonly policy: RetryPolicy;
  /** The attempt that just failed, 1-based. */
  readonly attempt: number;
  /** What the attempt threw. */
  readonly error: unknown;
  /** Source of jitter, `Math.random`-like. (Default: Math.random) */
  readonly random?: () => number;
}

/**
 * What to do with a failed attempt, purely. In order:
 * 1. a `terminal` code → dead now, `stopReason: 'terminal'` (remaining attempts unspent);
 * 2. no attempts left (`attempt >= attempts`) → dead, `stopReason: 'attempts-exhausted'`;
 * 3. a `retry-after` code with a finite `meta.retryAfterSeconds ≥ 0` → retry after that many
 *    seconds, clamped by `maxDelay` (without the meta it falls back to the backoff);
 * 4. `retryable`, unclassified, or not a coded error at all → the backoff ({@link backoffDelay}).
 */
export function decideRetry(input: DecideRetryInput): RetryDecision {
  const policy = resolveRetryPolicy(input.policy);
  const retryClass = errorRetryClass(input.error);
  if (retryClass === 'terminal') return { action: 'dead', stopReason: 'terminal' };
  if (input.attempt >= policy.attempts) return { action: 'dead', stopReason: 'attempts-exhausted' };
  const retryAfter = retryClass === 'retry-after' ? retryAfterSeconds(input.error) : undefined;
  if (retryAfter !== undefined) {
    return { action: 'retry', delayMs: Math.min(Math.round(retryAfter * 1000), policy.maxDelay) };
  }
  return { action: 'retry', delayMs: backoffDelay(policy, input.attempt, input.random ?? Math.random) };
}

/** `error.meta.retryAfterSeconds` when it is a finite, non-negative number. */
function retryAfterSeconds(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object' || !('meta' in error)) return undefined;
  const meta = (error as { meta: unknown }).meta;
  if (meta === null || typeof meta !== 'object') return undefined;
  const seconds = (meta as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}
