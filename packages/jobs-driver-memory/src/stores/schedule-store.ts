import type { ScheduleStore } from '@x/jobs-core/driver';
import type { MemoryStore } from '../memory-store.js';

/** Scheduler watermarks with compare-and-set, and pause flags. */
export function createScheduleStore(store: MemoryStore): ScheduleStore {
  return {
    async get(task) {
      const state = store.schedules.get(task);
      return state === undefined ? null : { ...state };
    },
    async list() {
      return [...store.schedules.values()]
        .sort((a, b) => (a.task < b.task ? -1 : 1))
        .map((state) => ({ ...state }));
    },
    async advance(task, expected, next) {
      const state = store.schedules.get(task);
      if ((state?.watermark ?? null) !== expected) return false;
      store.schedules.set(task, {
        task,
        watermark: next,
        paused: state?.paused ?? false,
        updatedAt: store.clock.now(),
      });
      return true;
    },
    async setPaused(task, paused) {
      const state = store.schedules.get(task);
      store.schedules.set(task, {
        task,
        watermark: state?.watermark ?? null,
        paused,
        updatedAt: store.clock.now(),
      });
    },
  };
}
