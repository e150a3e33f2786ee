import type { ScheduleState, ScheduleStore } from '@x/jobs-core/driver';
import { callClient, callScript, type DriverContext } from '../driver-context.js';
import { redisError } from '../errors.js';
import { SCHEDULE_ADVANCE_SCRIPT } from '../lua/schedule-advance.lua.js';
import { SCHEDULE_PAUSE_SCRIPT } from '../lua/schedule-pause.lua.js';

/** Scheduler watermarks in one hash, task → `<watermark>|<paused 0|1>|<updatedAt>`; moves are compare-and-set. */
export function createScheduleStore(context: DriverContext): ScheduleStore {
  return {
    async get(task: string): Promise<ScheduleState | null> {
      const value = await callClient(context, 'schedules.get', (client) =>
        client.hget(context.keys.schedules, task),
      );
      return value === null ? null : decodeSchedule(task, value);
    },
    async list(): Promise<readonly ScheduleState[]> {
      const all = await callClient(context, 'schedules.list', (client) =>
        client.hgetall(context.keys.schedules),
      );
      return Object.entries(all)
        .map(([task, value]) => decodeSchedule(task, value))
        .sort((a, b) => a.task.localeCompare(b.task));
    },
    async advance(task: string, expected: number | null, next: number): Promise<boolean> {
      const reply = await callScript(context, 'schedules.advance', SCHEDULE_ADVANCE_SCRIPT, [
        task,
        expected === null ? '' : String(expected),
        String(next),
      ]);
      return reply === 1;
    },
    async setPaused(task: string, paused: boolean): Promise<void> {
      await callScript(context, 'schedules.setPaused', SCHEDULE_PAUSE_SCRIPT, [task, paused ? '1' : '0']);
    },
  };
}

function decodeSchedule(task: string, value: string): ScheduleState {
  const match = /^([^|]*)\|([01])\|(\d+)$/.exec(value);
  if (match === null) throw redisError('X_REDIS_REPLY_INVALID', 'A schedule row is malformed.', { task });
  return {
    task,
    watermark: match[1] === '' ? null : Number(match[1]),
    paused: match[2] === '1',
    updatedAt: Number(match[3]),
  };
}
