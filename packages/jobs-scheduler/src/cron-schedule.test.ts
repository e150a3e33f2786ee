import { describe, expect, it } from 'vitest';
import { compileCron } from './cron-schedule.js';

const at = (iso: string): number => Date.parse(iso);

describe('compileCron', () => {
  it('reads the pattern in the given zone: 03:00 in Bogota is 08:00 UTC', () => {
    const schedule = compileCron('0 3 * * *', 'America/Bogota');
    expect(new Date(schedule.nextAfter(at('2026-11-29T00:00:00Z'))!).toISOString()).toBe(
      '2026-11-29T08:00:00.000Z',
    );
  });

  it('answers the next occurrence strictly after the given instant', () => {
    const schedule = compileCron('0 3 * * *', 'UTC');
    expect(schedule.nextAfter(at('2026-01-01T03:00:00Z'))).toBe(at('2026-01-02T03:00:00Z'));
    expect(schedule.nextAfter(at('2026-01-01T03:00:00.500Z'))).toBe(at('2026-01-02T03:00:00Z'));
    expect(schedule.nextAfter(at('2026-01-01T02:59:59.500Z'))).toBe(at('2026-01-01T03:00:00Z'));
  });

  it('accepts six fields (seconds first) and croner nicknames', () => {
    expect(compileCron('*/10 * * * * *', 'UTC').nextAfter(at('2026-01-01T00:00:01Z'))).toBe(
      at('2026-01-01T00:00:10Z'),
    );
    expect(compileCron('@daily', 'UTC').nextAfter(at('2026-01-01T12:00:00Z'))).toBe(
      at('2026-01-02T00:00:00Z'),
    );
  });

  it.each([
    ['0 3 * *', 'too few fields'],
    ['61 * * * *', 'a minute out of range'],
    ['@nightly', 'an unknown nickname'],
    ['0 0 0 1 1 * 2030', 'a year field'],
    ['0 0 30 2 *', 'a date that never exists'],
    ['', 'an empty pattern'],
  ])('refuses %s (%s) with X_TASK_CRON_INVALID naming the field', (cron) => {
    expect(() => compileCron(cron, 'UTC')).toThrow(
      expect.objectContaining({
        code: 'X_TASK_CRON_INVALID',
        meta: expect.objectContaining({ field: 'cron' }),
      }),
    );
  });

  it('refuses a non-string cron', () => {
    expect(() => compileCron(undefined, 'UTC')).toThrow(
      expect.objectContaining({ code: 'X_TASK_CRON_INVALID' }),
    );
  });
});
