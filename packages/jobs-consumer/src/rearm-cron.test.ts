import { describe, expect, it } from 'vitest';
import { rearmCron } from './rearm-cron.js';

describe('rearmCron', () => {
  it.each([
    ['1s', '* * * * * *'],
    ['30s', '*/30 * * * * *'],
    ['1m', '* * * * *'],
    ['15m', '*/15 * * * *'],
    [60_000 * 5, '*/5 * * * *'],
    ['1h', '0 * * * *'],
    ['6h', '0 */6 * * *'],
    ['1d', '0 0 * * *'],
  ])('%s fires on %s', (rearm, cron) => {
    expect(rearmCron(rearm as never)).toBe(cron);
  });

  it.each(['7s', '7m', '5h', '2d', '1500ms', 'soon', 0, -1])(
    'refuses %s, which no cron holds evenly',
    (rearm) => {
      expect(() => rearmCron(rearm as never)).toThrow(
        expect.objectContaining({ code: 'X_CONSUMER_INVALID' }),
      );
    },
  );
});
