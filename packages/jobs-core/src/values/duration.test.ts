import { describe, expect, it } from 'vitest';
import { JobsError } from '../errors/jobs-error.js';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['3d', 259_200_000],
    ['1.5s', 1_500],
    [250, 250],
  ])('parses %s as %d ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '3x', '', '0s', '-5m', 'ten seconds'])(
    'refuses %s',
    (input) => {
      const thrown = (() => {
        try {
          parseDuration(input, 'timeout');
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(thrown).toBeInstanceOf(JobsError);
      expect((thrown as JobsError).code).toBe('X_DURATION_INVALID');
      expect((thrown as JobsError).meta).toEqual({ field: 'timeout' });
    },
  );
});
