import { coreError } from '../errors/core-error.js';
import { mayStart } from '../job/attempt-budget.js';
import { failureOf } from '../steps/failure.js';
import { rateLimitBucket } from '../values/rate-limit-rule.js';
import type { AttemptScope } from './attempt-scope.js';
import type { AttemptOutcome } from './settlement.js';

/**
 * Phase 2b, rate limit: takes one grant of the job's `rateLimit` from `driver.rateLimits` (after
 * admission, the fleet slot and the drain check, right before the start, so a grant is spent only
 * by a run that is about to start; a row out of attempts spends none). Undefined when the job has no limit or the grant was taken, else:
 *
 * - over the limit → `deferred` `X_JOB_RATE_LIMITED`: the row goes back uncounted with its run
 *   time moved to the store's `retryAt` (never dropped, never charged an attempt);
 * - no rate-limit store → `refused` `X_JOB_RATE_LIMIT_UNENFORCEABLE` (a worker checks this at start);
 * - a `rateLimit.key(input)` that is not a valid key throws `X_JOB_KEY_INVALID` (terminal).
 */
export async function takeRateLimit(scope: AttemptScope): Promise<AttemptOutcome | undefined> {
  const rateLimit = scope.definition?.rateLimit;
  // A row out of attempts is dead-lettered by the start phase: it spends no grant.
  if (rateLimit === undefined || !mayStart(scope.job)) return undefined;
  const { job, driver } = scope;
  const store = driver.rateLimits;
  if (store === undefined) {
    const error = coreError(
      'X_JOB_RATE_LIMIT_UNENFORCEABLE',
      `Job '${job.name}' declares rateLimit but driver '${driver.name}' has no rate-limit store.`,
      { jobs: [job.name] },
    );
    return { kind: 'refused', failure: failureOf(error) };
  }
  const key = rateLimitBucket(rateLimit, job.name, scope.input);
  const taken = await store.take(key, { limit: rateLimit.limit, perMs: rateLimit.perMs });
  if (taken.ok) return undefined;
  return {
    kind: 'deferred',
    delayMs: Math.max(0, taken.retryAt - driver.now()),
    code: 'X_JOB_RATE_LIMITED',
    key,
  };
}
