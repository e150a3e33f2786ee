import { job } from '@x/jobs-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nextOccurrences } from './next-occurrences.js';
import { task } from './task.js';

const noop = job({
  name: 'scheduler-test.noop',
  input: z.object({}),
  idempotencyKey: () => 'k',
  tenant: 'none',
  run: async () => undefined,
});
const nightly = task({ cron: '0 3 * * *', tz: 'America/Bogota', enqueue: () => [[noop, {}]] });

describe('nextOccurrences', () => {
  it('answers the next n occurrences after from, oldest first', () => {
    expect(nextOccurrences(nightly, 3, new Date('2026-11-29T00:00:00Z')).map((d) => d.toISOString())).toEqual(
      ['2026-11-29T08:00:00.000Z', '2026-11-30T08:00:00.000Z', '2026-12-01T08:00:00.000Z'],
    );
  });

  it('takes epoch ms and excludes an occurrence exactly at from', () => {
    expect(nextOccurrences(nightly, 1, Date.parse('2026-11-29T08:00:00Z'))[0]?.toISOString()).toBe(
      '2026-11-30T08:00:00.000Z',
    );
  });

  it('defaults from to now', () => {
    const [next] = nextOccurrences(nightly, 1);
    expect(next!.getTime()).toBeGreaterThan(Date.now());
    expect(next!.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
  });

  it('answers nothing for n = 0 and refuses a bad n or from', () => {
    expect(nextOccurrences(nightly, 0)).toEqual([]);
    expect(() => nextOccurrences(nightly, -1)).toThrow(
      expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
    );
    expect(() => nextOccurrences(nightly, 1, new Date('nope'))).toThrow(
      expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
    );
  });

  it('refuses something that is not a task handle', () => {
    expect(() => nextOccurrences({ name: 'x' } as never, 1)).toThrow(
      expect.objectContaining({ code: 'X_SCHEDULER_OPTIONS_INVALID' }),
    );
  });
});
