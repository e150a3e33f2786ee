import { expect } from 'vitest';
import type { JobDriverCase } from '../job-driver-case.js';

const group = 'schedules';

/** The schedule store: watermark compare-and-set, pause flags, listing. */
export const scheduleCases: readonly JobDriverCase[] = [
  {
    group,
    name: 'a task with no row reads null; the first advance from null creates it unpaused',
    async run(h) {
      const task = h.unique('nightly');
      expect(await h.schedules.get(task)).toBeNull();
      expect(await h.schedules.advance(task, null, 1_000)).toBe(true);
      const state = await h.schedules.get(task);
      expect(state).toMatchObject({ task, watermark: 1_000, paused: false });
      expect(typeof state!.updatedAt).toBe('number');
    },
  },
  {
    group,
    name: 'advance is a compare-and-set: a stale expected watermark answers false and changes nothing',
    async run(h) {
      const task = h.unique('hourly');
      await h.schedules.advance(task, null, 1_000);
      expect(await h.schedules.advance(task, null, 2_000), 'expected null, stored 1000').toBe(false);
      expect(await h.schedules.advance(task, 500, 2_000)).toBe(false);
      expect((await h.schedules.get(task))?.watermark).toBe(1_000);
      expect(await h.schedules.advance(task, 1_000, 2_000)).toBe(true);
      expect((await h.schedules.get(task))?.watermark).toBe(2_000);
    },
  },
  {
    group,
    name: 'concurrent advances from one watermark: exactly one wins',
    async run(h) {
      const task = h.unique('racy');
      await h.schedules.advance(task, null, 1_000);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => h.schedules.advance(task, 1_000, 2_000 + i)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await h.schedules.get(task))?.watermark).toBe(2_000 + results.indexOf(true));
    },
  },
  {
    group,
    name: 'setPaused creates a row with a null watermark, toggles, and keeps the watermark',
    async run(h) {
      const task = h.unique('paused');
      await h.schedules.setPaused(task, true);
      expect(await h.schedules.get(task)).toMatchObject({ task, watermark: null, paused: true });
      expect(await h.schedules.advance(task, null, 5_000)).toBe(true);
      expect(await h.schedules.get(task)).toMatchObject({ watermark: 5_000, paused: true });
      await h.schedules.setPaused(task, false);
      expect(await h.schedules.get(task)).toMatchObject({ watermark: 5_000, paused: false });
    },
  },
  {
    group,
    name: 'list answers every task row',
    async run(h) {
      const [a, b] = [h.unique('task-a'), h.unique('task-b')];
      await h.schedules.advance(a, null, 10);
      await h.schedules.setPaused(b, true);
      const mine = (await h.schedules.list()).filter((state) => state.task === a || state.task === b);
      expect(mine).toHaveLength(2);
      expect(mine.find((state) => state.task === a)).toMatchObject({ watermark: 10, paused: false });
      expect(mine.find((state) => state.task === b)).toMatchObject({ watermark: null, paused: true });
    },
  },
];
