import { coreError } from '../errors/core-error.js';
import type { Duration } from '../values/duration.js';
import { durationField } from '../values/duration-field.js';
import { checkKnownKeys } from '../values/known-keys.js';
import { VALUE_LIMITS } from '../values/value-limits.js';

/** How the delay grows between attempts: `delay·2^(n-1)`, `delay·n`, or `delay`. */
export type Backoff = 'exponential' | 'linear' | 'fixed';

/** A job's retry policy as declared; every field is optional and falls back to {@link DEFAULT_RETRY_POLICY}. */
export interface RetryPolicy {
  /** Attempts in all, the first included: an integer from 1 to 1,000. (Default: 5) */
  readonly attempts?: number;
  /** (Default: 'exponential') */
  readonly backoff?: Backoff;
  /** The base delay: the wait before the second attempt. (Default: 1s) */
  readonly delay?: Duration;
  /** No wait exceeds this, `retry-after` waits included. (Default: 1h) */
  readonly maxDelay?: Duration;
  /**
   * Equal jitter: each wait is drawn uniformly from `[d/2, d]`, so a burst of failures does not
   * retry in lockstep. (Default: true)
   */
  readonly jitter?: boolean;
}

/** A retry policy with every field resolved; durations in milliseconds. */
export interface ResolvedRetryPolicy {
  readonly attempts: number;
  readonly backoff: Backoff;
  readonly delay: number;
  readonly maxDelay: number;
  readonly jitter: boolean;
}

/** The policy of a job that declares no `retry`: 5 attempts, exponential from 1s, capped at 1h, jittered. */
export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = Object.freeze({
  attempts: 5,
  backoff: 'exponential',
  delay: 1_000,
  maxDelay: 3_600_000,
  jitter: true,
});

const BACKOFFS: readonly Backoff[] = ['exponential', 'linear', 'fixed'];

/** The keys a retry policy may have; any other (a typo) is refused. */
const RETRY_POLICY_KEYS: ReadonlySet<string> = new Set([
  'attempts',
  'backoff',
  'delay',
  'maxDelay',
  'jitter',
]);

/**
 * Fills a declared policy from {@link DEFAULT_RETRY_POLICY} and validates it strictly. A policy
 * that is not a plain object (`retry: []` included), an unknown key (`meta.known` lists the known
 * ones), an attempts count that is not an integer from 1 to 1,000, an unknown backoff, a bad
 * duration (under 1 ms or over 100 years) or a non-boolean jitter is `X_JOB_DECLARATION_INVALID`
 * naming the field (`retry.attempts`, …).
 */
export function resolveRetryPolicy(policy: RetryPolicy | undefined, field = 'retry'): ResolvedRetryPolicy {
  if (policy === undefined) return DEFAULT_RETRY_POLICY;
  if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) {
    throw coreError(
      'X_JOB_DECLARATION_INVALID',
      `${field}: expected an object, got ${Array.isArray(policy) ? 'an array' : typeof policy}.`,
      { field },
    );
  }
  checkKnownKeys(policy, RETRY_POLICY_KEYS, field, 'X_JOB_DECLARATION_INVALID');
  const attempts = policy.attempts ?? DEFAULT_RETRY_POLICY.attempts;
  if (!Number.isSafeInteger(attempts) || attempts < 1 || attempts > VALUE_LIMITS.maxAttempts) {
    throw coreError(
      'X_JOB_DECLARATION_INVALID',
      `${field}.attempts: must be an integer from 1 to ${VALUE_LIMITS.maxAttempts} (attempts in all, the first included), got ${String(attempts)}.`,
      { field: `${field}.attempts` },
    );
  }
  const backoff = policy.backoff ?? DEFAULT_RETRY_POLICY.backoff;
  if (!BACKOFFS.includes(backoff)) {
    throw coreError(
      'X_JOB_DECLARATION_INVALID',
      `${field}.backoff: must be 'exponential', 'linear' or 'fixed', got ${String(backoff)}.`,
      { field: `${field}.backoff` },
    );
  }
  const jitter = policy.jitter ?? DEFAULT_RETRY_POLICY.jitter;
  if (typeof jitter !== 'boolean') {
    throw coreError('X_JOB_DECLARATION_INVALID', `${field}.jitter: must be true or false.`, {
      field: `${field}.jitter`,
    });
  }
  return Object.freeze({
    attempts,
    backoff,
    delay:
      policy.delay === undefined
        ? DEFAULT_RETRY_POLICY.delay
        : durationField(policy.delay, `${field}.delay`, 'X_JOB_DECLARATION_INVALID'),
    maxDelay:
      policy.maxDelay === undefined
        ? DEFAULT_RETRY_POLICY.maxDelay
        : durationField(policy.maxDelay, `${field}.maxDelay`, 'X_JOB_DECLARATION_INVALID'),
    jitter,
  });
}
