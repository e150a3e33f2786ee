import { describe, expect, it } from 'vitest';
import { errorCode } from '../errors/jobs-error.js';
import { isFairClaim, parseQueueOptions } from './queue-settings.js';

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

const claim = (queues: string[]) => ({ queues, limit: 1, workerId: 'w', visibilityTimeoutMs: 1000 });

describe('parseQueueOptions', () => {
  it('collects the fair queues', () => {
    const settings = parseQueueOptions({ a: { fairness: 'tenant' }, b: { fairness: 'none' }, c: {} }, 'test');
    expect([...settings.fairQueues]).toEqual(['a']);
    expect(parseQueueOptions(undefined, 'test').fairQueues.size).toBe(0);
  });

  it.each([
    ['a list', ['a']],
    ['null', null],
    ['an empty queue name', { '': { fairness: 'tenant' } }],
    ['options that are not an object', { a: 'tenant' }],
    ['an unknown key', { a: { fair: true } }],
    ['an unknown fairness', { a: { fairness: 'round-robin' } }],
  ])('refuses %s with X_QUEUE_OPTIONS_INVALID', (_label, raw) => {
    expect(errorCode(thrown(() => parseQueueOptions(raw, 'test')))).toBe('X_QUEUE_OPTIONS_INVALID');
  });
});

describe('isFairClaim', () => {
  const settings = parseQueueOptions({ fair: { fairness: 'tenant' } }, 'test');

  it('is true for the fair queue alone and false without one', () => {
    expect(isFairClaim(settings, claim(['fair']))).toBe(true);
    expect(isFairClaim(settings, claim(['fair', 'fair']))).toBe(true);
    expect(isFairClaim(settings, claim(['other', 'more']))).toBe(false);
  });

  it('refuses a fair queue claimed together with another with X_CLAIM_FAIRNESS_MIXED', () => {
    expect(errorCode(thrown(() => isFairClaim(settings, claim(['fair', 'other']))))).toBe(
      'X_CLAIM_FAIRNESS_MIXED',
    );
  });
});
