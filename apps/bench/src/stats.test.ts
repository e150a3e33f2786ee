import { describe, expect, it } from 'vitest';
import { percentile, summarize } from './stats.js';

describe('summarize', () => {
  it('takes the middle of an odd count, whatever the order', () => {
    expect(summarize([9, 1, 5])).toEqual({ median: 5, min: 1, max: 9, n: 3 });
  });

  it('averages the middle two of an even count', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, n: 4 });
  });

  it('refuses an empty set', () => {
    expect(() => summarize([])).toThrow(RangeError);
  });
});

describe('percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, index) => 100 - index);

  it('answers the nearest rank', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7, 3, 5], 50)).toBe(5);
  });

  it('refuses p outside (0, 100]', () => {
    expect(() => percentile(hundred, 0)).toThrow(RangeError);
    expect(() => percentile(hundred, 101)).toThrow(RangeError);
  });
});
