import { describe, expect, it } from 'vitest';
import { planCatchUp } from './catch-up.js';
import { compileCron } from './cron-schedule.js';

const hourly = compileCron('0 * * * *', 'UTC');
const at = (iso: string): number => Date.parse(iso);
const hours = (from: string, count: number): number[] =>
  Array.from({ length: count }, (_, i) => at(from) + i * 3_600_000);

describe('planCatchUp', () => {
  const watermark = at('2026-06-01T00:00:00Z');

  it('answers null when nothing is due', () => {
    expect(
      planCatchUp({
        schedule: hourly,
        watermark,
        now: at('2026-06-01T00:59:59Z'),
        catchUp: 'skip',
        maxCatchUp: 10,
      }),
    ).toBeNull();
  });

  it('fires the one due occurrence under every policy', () => {
    for (const catchUp of ['skip', 'run-once', 'run-all'] as const) {
      expect(
        planCatchUp({
          schedule: hourly,
          watermark,
          now: at('2026-06-01T01:00:30Z'),
          catchUp,
          maxCatchUp: 10,
        }),
      ).toEqual({
        fire: [at('2026-06-01T01:00:00Z')],
        due: 1,
        capped: false,
        watermark: at('2026-06-01T01:00:00Z'),
      });
    }
  });

  describe('after 5 missed hours (within maxCatchUp)', () => {
    const now = at('2026-06-01T05:30:00Z');
    const missed = hours('2026-06-01T01:00:00Z', 5);

    it('skip fires the latest missed occurrence', () => {
      expect(planCatchUp({ schedule: hourly, watermark, now, catchUp: 'skip', maxCatchUp: 10 })).toEqual({
        fire: [missed[4]],
        due: 5,
        capped: false,
        watermark: missed[4],
      });
    });

    it('run-once fires the earliest missed occurrence, and the watermark passes the rest', () => {
      expect(planCatchUp({ schedule: hourly, watermark, now, catchUp: 'run-once', maxCatchUp: 10 })).toEqual({
        fire: [missed[0]],
        due: 5,
        capped: false,
        watermark: missed[4],
      });
    });

    it('run-all fires each missed occurrence, oldest first', () => {
      expect(planCatchUp({ schedule: hourly, watermark, now, catchUp: 'run-all', maxCatchUp: 10 })).toEqual({
        fire: missed,
        due: 5,
        capped: false,
        watermark: missed[4],
      });
    });
  });

  describe('after 30 missed hours (beyond maxCatchUp 10): the walk stops at 10 for every policy', () => {
    const now = at('2026-06-02T06:15:00Z');
    const walked = hours('2026-06-01T01:00:00Z', 10);

    it('skip fires the latest occurrence within the walk, not the true latest', () => {
      const plan = planCatchUp({ schedule: hourly, watermark, now, catchUp: 'skip', maxCatchUp: 10 });
      expect(plan).toEqual({ fire: [walked[9]], due: 10, capped: true, watermark: now });
    });

    it('run-once fires the earliest, once', () => {
      const plan = planCatchUp({ schedule: hourly, watermark, now, catchUp: 'run-once', maxCatchUp: 10 });
      expect(plan).toEqual({ fire: [walked[0]], due: 10, capped: true, watermark: now });
    });

    it('run-all fires the first 10 and drops the rest', () => {
      const plan = planCatchUp({ schedule: hourly, watermark, now, catchUp: 'run-all', maxCatchUp: 10 });
      expect(plan).toEqual({ fire: walked, due: 10, capped: true, watermark: now });
    });

    it('the next round after the catch-up fires nothing until the next real occurrence', () => {
      for (const catchUp of ['skip', 'run-once', 'run-all'] as const) {
        const plan = planCatchUp({ schedule: hourly, watermark, now, catchUp, maxCatchUp: 10 })!;
        const next = { schedule: hourly, watermark: plan.watermark, catchUp, maxCatchUp: 10 };
        expect(planCatchUp({ ...next, now: now + 1_000 })).toBeNull();
        expect(planCatchUp({ ...next, now: at('2026-06-02T07:00:00Z') })?.fire).toEqual([
          at('2026-06-02T07:00:00Z'),
        ]);
      }
    });
  });

  it('exactly maxCatchUp due occurrences is not capped', () => {
    const plan = planCatchUp({
      schedule: hourly,
      watermark,
      now: at('2026-06-01T03:00:00Z'),
      catchUp: 'run-all',
      maxCatchUp: 3,
    });
    expect(plan).toEqual({
      fire: hours('2026-06-01T01:00:00Z', 3),
      due: 3,
      capped: false,
      watermark: at('2026-06-01T03:00:00Z'),
    });
  });

  it('counts an occurrence exactly at now as due', () => {
    const plan = planCatchUp({
      schedule: hourly,
      watermark,
      now: at('2026-06-01T01:00:00Z'),
      catchUp: 'skip',
      maxCatchUp: 10,
    });
    expect(plan?.fire).toEqual([at('2026-06-01T01:00:00Z')]);
  });

  it('stops when the pattern runs out', () => {
    const once = { nextAfter: (ms: number) => (ms < 100 ? 100 : null) };
    expect(
      planCatchUp({ schedule: once, watermark: 0, now: 1_000, catchUp: 'run-all', maxCatchUp: 10 }),
    ).toEqual({
      fire: [100],
      due: 1,
      capped: false,
      watermark: 100,
    });
  });
});
