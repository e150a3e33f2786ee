import { describe, expect, it } from 'vitest';
import type { JobsError } from '../errors/jobs-error.js';
import { rateLimitBucket, resolveRateLimit } from './rate-limit-rule.js';
import { VALUE_LIMITS } from './value-limits.js';

const thrown = (run: () => unknown): JobsError => {
  try {
    run();
  } catch (error) {
    return error as JobsError;
  }
  throw new Error('expected a throw');
};

describe('resolveRateLimit', () => {
  it('resolves per to whole ms and keeps the key', () => {
    const key = (input: unknown) => String(input);
    expect(resolveRateLimit({ limit: 100, per: '1m' })).toEqual({ limit: 100, perMs: 60_000 });
    expect(resolveRateLimit({ limit: 1, per: 250, key: 'partner' })).toEqual({
      limit: 1,
      perMs: 250,
      key: 'partner',
    });
    expect(resolveRateLimit({ limit: 2, per: '1s', key })?.key).toBe(key);
    expect(resolveRateLimit(undefined)).toBeUndefined();
  });

  it.each([
    ['not an object', 5, 'rateLimit'],
    ['an unknown key', { limit: 1, per: '1s', burst: 2 }, 'rateLimit.burst'],
    ['limit 0', { limit: 0, per: '1s' }, 'rateLimit.limit'],
    ['a fractional limit', { limit: 1.5, per: '1s' }, 'rateLimit.limit'],
    ['a limit above the ceiling', { limit: VALUE_LIMITS.maxRateLimit + 1, per: '1s' }, 'rateLimit.limit'],
    ['a missing per', { limit: 1 }, 'rateLimit.per'],
    ['an unparseable per', { limit: 1, per: '3x' }, 'rateLimit.per'],
    ['a zero per', { limit: 1, per: 0 }, 'rateLimit.per'],
    ['a key of another type', { limit: 1, per: '1s', key: 7 }, 'rateLimit.key'],
    ['an empty key', { limit: 1, per: '1s', key: '' }, 'rateLimit.key'],
    ['a key with U+0000', { limit: 1, per: '1s', key: 'a\u0000b' }, 'rateLimit.key'],
    [
      'a key too long',
      { limit: 1, per: '1s', key: 'k'.repeat(VALUE_LIMITS.rateLimitKeyBytes + 1) },
      'rateLimit.key',
    ],
  ])('refuses %s with X_JOB_DECLARATION_INVALID naming the field', (_label, value, field) => {
    const error = thrown(() => resolveRateLimit(value));
    expect(error.code).toBe('X_JOB_DECLARATION_INVALID');
    expect(error.meta?.field).toBe(field);
  });
});

describe('rateLimitBucket', () => {
  it('is the job name without a key, the key (shared across jobs) with one', () => {
    expect(rateLimitBucket({ limit: 1, perMs: 1 }, 'sync', {})).toBe('job:sync');
    expect(rateLimitBucket({ limit: 1, perMs: 1, key: 'partner' }, 'sync', {})).toBe('key:partner');
    const derived = { limit: 1, perMs: 1, key: (input: unknown) => (input as { apiKey: string }).apiKey };
    expect(rateLimitBucket(derived, 'sync', { apiKey: 'ak-1' })).toBe('key:ak-1');
    expect(rateLimitBucket(derived, 'export', { apiKey: 'ak-1' })).toBe('key:ak-1');
  });

  it.each([
    ['a number', 7],
    ['an empty string', ''],
    ['a lone surrogate', '\uD800'],
    ['a string too long', 'k'.repeat(VALUE_LIMITS.rateLimitKeyBytes + 1)],
  ])('refuses a key(input) answering %s with X_JOB_KEY_INVALID', (_label, answer) => {
    const error = thrown(() =>
      rateLimitBucket({ limit: 1, perMs: 1, key: () => answer as string }, 'sync', {}),
    );
    expect(error.code).toBe('X_JOB_KEY_INVALID');
    expect(error.meta?.field).toBe('rateLimit.key');
  });
});
