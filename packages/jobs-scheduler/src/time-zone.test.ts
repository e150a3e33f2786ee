import { describe, expect, it } from 'vitest';
import { resolveTimeZone } from './time-zone.js';

describe('resolveTimeZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['America/bogota', 'America/Bogota'],
    ['UTC', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['US/Pacific', 'America/Los_Angeles'],
  ])('accepts %s and answers the canonical %s', (input, canonical) => {
    expect(resolveTimeZone(input)).toBe(canonical);
  });

  it.each(['Bogota', 'bogota', 'UTC+5', '+05:00', 'Z', '', '   ', undefined, null, 5])(
    'refuses %s with X_TASK_TZ_INVALID naming the field',
    (input) => {
      expect(() => resolveTimeZone(input)).toThrow(
        expect.objectContaining({
          code: 'X_TASK_TZ_INVALID',
          meta: expect.objectContaining({ field: 'tz' }),
        }),
      );
    },
  );
});
