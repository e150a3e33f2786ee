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

  it('reads weights into row costs, every other tenant (and no tenant) weighing 1', () => {
    const settings = parseQueueOptions(
      { a: { fairness: { by: 'tenant', weights: { 'org-a': 3 } } } },
      'test',
    );
    expect([...settings.fairQueues]).toEqual(['a']);
    const policy = settings.fairPolicies.get('a')!;
    expect(policy.costOf('org-a') * 3).toBe(policy.costOf('org-b'));
    expect(policy.costOf(null)).toBe(policy.costOf('org-b'));
  });

  it.each([
    ['a list', ['a']],
    ['null', null],
    ['an empty queue name', { '': { fairness: 'tenant' } }],
    ['options that are not an object', { a: 'tenant' }],
    ['an unknown key', { a: { fair: true } }],
    ['an unknown fairness', { a: { fairness: 'round-robin' } }],
    ['fairness by something else', { a: { fairness: { by: 'key' } } }],
    ['an unknown fairness key', { a: { fairness: { by: 'tenant', weight: {} } } }],
    ['weights that are not an object', { a: { fairness: { by: 'tenant', weights: [3] } } }],
    ['a zero weight', { a: { fairness: { by: 'tenant', weights: { x: 0 } } } }],
    ['a negative weight', { a: { fairness: { by: 'tenant', weights: { x: -1 } } } }],
    ['a weight above 1000', { a: { fairness: { by: 'tenant', weights: { x: 1001 } } } }],
    ['a weight that is not a number', { a: { fairness: { by: 'tenant', weights: { x: '3' } } } }],
    ['a weight that is not finite', { a: { fairness: { by: 'tenant', weights: { x: Number.NaN } } } }],
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
