import { describe, expect, it } from 'vitest';
import { JobsError } from '../errors/jobs-error.js';
import { errorRetryClass, registerErrorRetry } from './error-retry.js';

describe('registerErrorRetry / errorRetryClass', () => {
  it('classifies registered codes on JobsErrors and on native errors with a string code', () => {
    registerErrorRetry({ X_ERROR_RETRY_TEST_A: 'terminal', ECONNRESET_TEST: 'retryable' });
    expect(errorRetryClass(new JobsError('X_ERROR_RETRY_TEST_A', 'a'))).toBe('terminal');
    expect(errorRetryClass(Object.assign(new Error('reset'), { code: 'ECONNRESET_TEST' }))).toBe('retryable');
  });

  it('answers undefined for unclassified codes and values without a code', () => {
    expect(errorRetryClass(new JobsError('X_ERROR_RETRY_TEST_UNKNOWN', 'u'))).toBeUndefined();
    expect(errorRetryClass(new Error('plain'))).toBeUndefined();
    expect(errorRetryClass('a string')).toBeUndefined();
  });

  it('lets a later registration replace an earlier one, core codes included', () => {
    registerErrorRetry({ X_ERROR_RETRY_TEST_B: 'retryable' });
    registerErrorRetry({ X_ERROR_RETRY_TEST_B: 'retry-after' });
    expect(errorRetryClass(new JobsError('X_ERROR_RETRY_TEST_B', 'b'))).toBe('retry-after');
  });

  it('refuses an unknown class without registering any of the batch', () => {
    try {
      registerErrorRetry({ X_ERROR_RETRY_TEST_C: 'terminal', X_ERROR_RETRY_TEST_D: 'sometimes' as never });
      expect.unreachable();
    } catch (error) {
      expect((error as JobsError).code).toBe('X_JOB_DECLARATION_INVALID');
    }
    expect(errorRetryClass(new JobsError('X_ERROR_RETRY_TEST_C', 'c'))).toBeUndefined();
  });
});
