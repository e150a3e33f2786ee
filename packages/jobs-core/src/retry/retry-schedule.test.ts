import { describe, expect, it } from 'vitest';
import { JobsError } from '../errors/jobs-error.js';
import { DEFAULT_RETRY_POLICY, resolveRetryPolicy } from './retry-policy.js';
import { backoffDelay, retrySchedule } from './retry-schedule.js';

describe('retrySchedule', () => {
  it('is [1000, 2000, 4000, 8000] for 5 exponential attempts from 1s without jitter', () => {
    expect(retrySchedule({ attempts: 5, backoff: 'exponential', delay: 1000, jitter: false })).toEqual([
      1000, 2000, 4000, 8000,
    ]);
  });

  it('grows linearly and stays fixed', () => {
    expect(retrySchedule({ attempts: 4, backoff: 'linear', delay: '1s', jitter: false })).toEqual([
      1000, 2000, 3000,
    ]);
    expect(retrySchedule({ attempts: 3, backoff: 'fixed', delay: 250, jitter: false })).toEqual([250, 250]);
  });

  it('caps every wait at maxDelay', () => {
    expect(retrySchedule({ attempts: 6, delay: '1s', maxDelay: '5s', jitter: false })).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });

  it('draws equal jitter from [d/2, d) by default', () => {
    expect(retrySchedule({ attempts: 4, delay: 1000 }, () => 0)).toEqual([500, 1000, 2000]);
    expect(retrySchedule({ attempts: 4, delay: 1000 }, () => 0.5)).toEqual([750, 1500, 3000]);
    for (const wait of retrySchedule({ attempts: 4, delay: 1000 })) {
      expect(wait).toBeGreaterThanOrEqual(500);
    }
  });

  it('is empty for a single attempt', () => {
    expect(retrySchedule({ attempts: 1 })).toEqual([]);
  });

  it('defaults to 5 attempts, exponential from 1s, capped at 1h, jittered', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      attempts: 5,
      backoff: 'exponential',
      delay: 1000,
      maxDelay: 3_600_000,
      jitter: true,
    });
    expect(retrySchedule(undefined, () => 1 - Number.EPSILON)).toEqual([1000, 2000, 4000, 8000]);
  });

  it('does not overflow past the cap for very late attempts', () => {
    const policy = resolveRetryPolicy({ delay: 1000, jitter: false });
    expect(backoffDelay(policy, 5000, Math.random)).toBe(3_600_000);
  });

  it.each([
    [{ attempts: 0 }, 'retry.attempts'],
    [{ attempts: 2.5 }, 'retry.attempts'],
    [{ backoff: 'cubic' }, 'retry.backoff'],
    [{ delay: 0 }, 'retry.delay'],
    [{ maxDelay: '3x' }, 'retry.maxDelay'],
    [{ jitter: 'yes' }, 'retry.jitter'],
  ])('refuses %o, naming %s', (policy, field) => {
    try {
      retrySchedule(policy as never);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JobsError);
      expect((error as JobsError).code).toBe('X_JOB_DECLARATION_INVALID');
      expect((error as JobsError).meta.field).toBe(field);
    }
  });
});
