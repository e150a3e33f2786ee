import { describe, expect, it } from 'vitest';
import { attemptsLabel, isFinalAttempt, maxAttemptsOf, mayStart, pastRetries } from './attempt-budget.js';
import { UNWIND_MARGIN } from './unwind-margin.js';

const plain = { retry: { attempts: 5 }, compensates: false };
const compensating = { retry: { attempts: 5 }, compensates: true };

describe('the attempt budget', () => {
  it('writes the cap with the unwind margin only for a compensating job', () => {
    expect(maxAttemptsOf(plain)).toBe(5);
    expect(maxAttemptsOf(compensating)).toBe(5 + UNWIND_MARGIN);
  });

  it('starts a body while the cap allows, unwinds only past the retries, and names the final attempt', () => {
    expect(mayStart({ attempt: 7, maxAttempts: 7 })).toBe(true);
    expect(mayStart({ attempt: 8, maxAttempts: 7 })).toBe(false);
    expect(pastRetries({ attempt: 6, maxAttempts: 7 }, compensating)).toBe(true);
    expect(isFinalAttempt({ attempt: 5, maxAttempts: 7 }, compensating)).toBe(true);
    expect(isFinalAttempt({ attempt: 4, maxAttempts: 7 }, compensating)).toBe(false);
  });

  it('shows started/cap while live and only the started attempts once finished (a dead compensating row is not 5/7)', () => {
    expect(attemptsLabel({ state: 'delayed', attempts: 3, maxAttempts: 7 })).toBe('3/7');
    expect(attemptsLabel({ state: 'running', attempts: 0, maxAttempts: 1 })).toBe('0/1');
    expect(attemptsLabel({ state: 'dead', attempts: 5, maxAttempts: 7 })).toBe('5');
    expect(attemptsLabel({ state: 'done', attempts: 1, maxAttempts: 5 })).toBe('1');
  });
});
