import type { StopReason } from '../driver/job-state.js';

/** What the executor does with a failed attempt: retry after `delayMs`, or dead-letter it. */
export type RetryDecision =
  | { readonly action: 'retry'; readonly delayMs: number }
  | { readonly action: 'dead'; readonly stopReason: StopReason };

/**
 * How an error code is retried:
 * - `terminal`: dead-lettered on the attempt it happened, remaining attempts unspent;
 * - `retry-after`: retried after the error's `meta.retryAfterSeconds`, clamped by `maxDelay`;
 * - `retryable`: the backoff schedule (the same as an unclassified code).
 */
export type ErrorRetryClass = 'terminal' | 'retry-after' | 'retryable';
