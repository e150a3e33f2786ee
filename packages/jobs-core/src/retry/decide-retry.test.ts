import { describe, expect, it } from 'vitest';
import { coreError } from '../errors/core-error.js';
import { JobsError } from '../errors/jobs-error.js';
import { decideRetry } from './decide-retry.js';
import { registerErrorRetry } from './error-retry.js';

registerErrorRetry({
  X_DECIDE_TEST_TERMINAL: 'terminal',
  X_DECIDE_TEST_RATE_LIMITED: 'retry-after',
  X_DECIDE_TEST_FLAKY: 'retryable',
});

const policy = { attempts: 5, backoff: 'exponential', delay: 1000, maxDelay: '1m', jitter: false } as const;
const coded = (code: string, meta?: Record<string, unknown>) =>
  new JobsError(code, code, meta ? { meta } : {});

describe('decideRetry, one row of the table each', () => {
  it('terminal: dead now with stopReason terminal, attempts unspent', () => {
    expect(decideRetry({ policy, attempt: 1, error: coded('X_DECIDE_TEST_TERMINAL') })).toEqual({
      action: 'dead',
      stopReason: 'terminal',
    });
  });

  it('retry-after: waits meta.retryAfterSeconds', () => {
    const error = coded('X_DECIDE_TEST_RATE_LIMITED', { retryAfterSeconds: 7 });
    expect(decideRetry({ policy, attempt: 1, error })).toEqual({ action: 'retry', delayMs: 7000 });
  });

  it('retry-after: clamped by maxDelay', () => {
    const error = coded('X_DECIDE_TEST_RATE_LIMITED', { retryAfterSeconds: 3600 });
    expect(decideRetry({ policy, attempt: 1, error })).toEqual({ action: 'retry', delayMs: 60_000 });
  });

  it('retry-after without a usable meta.retryAfterSeconds: the backoff', () => {
    const error = coded('X_DECIDE_TEST_RATE_LIMITED', { retryAfterSeconds: -1 });
    expect(decideRetry({ policy, attempt: 3, error })).toEqual({ action: 'retry', delayMs: 4000 });
  });

  it('retryable: the backoff', () => {
    expect(decideRetry({ policy, attempt: 2, error: coded('X_DECIDE_TEST_FLAKY') })).toEqual({
      action: 'retry',
      delayMs: 2000,
    });
  });

  it('unclassified code: the backoff', () => {
    expect(decideRetry({ policy, attempt: 2, error: coded('X_DECIDE_TEST_NOBODY_CLASSIFIED') })).toEqual({
      action: 'retry',
      delayMs: 2000,
    });
  });

  it('not a coded error at all: the backoff', () => {
    expect(decideRetry({ policy, attempt: 1, error: new TypeError('boom') })).toEqual({
      action: 'retry',
      delayMs: 1000,
    });
  });

  it('exhausted: dead with stopReason attempts-exhausted', () => {
    expect(decideRetry({ policy, attempt: 5, error: coded('X_DECIDE_TEST_FLAKY') })).toEqual({
      action: 'dead',
      stopReason: 'attempts-exhausted',
    });
  });

  it('terminal on the final attempt still says terminal', () => {
    expect(decideRetry({ policy, attempt: 5, error: coded('X_DECIDE_TEST_TERMINAL') })).toEqual({
      action: 'dead',
      stopReason: 'terminal',
    });
  });

  it('applies jitter through the given random source', () => {
    const jittered = { ...policy, jitter: true };
    expect(decideRetry({ policy: jittered, attempt: 2, error: new Error('x'), random: () => 0 })).toEqual({
      action: 'retry',
      delayMs: 1000,
    });
  });

  it("classifies core's own codes", () => {
    const dead = { action: 'dead', stopReason: 'terminal' };
    for (const code of [
      'X_JOB_INPUT_INVALID',
      'X_STEP_OUTPUT_UNSERIALIZABLE',
      'X_STEP_OUTCOME_UNKNOWN',
      'X_JOB_EVENT_INVALID',
      'X_STEP_DUPLICATE',
    ]) {
      expect(decideRetry({ policy, attempt: 1, error: coded(code) })).toEqual(dead);
    }
    const outage = coreError('X_DRIVER_UNAVAILABLE', 'down');
    expect(decideRetry({ policy, attempt: 1, error: outage })).toEqual({ action: 'retry', delayMs: 1000 });
  });
});
