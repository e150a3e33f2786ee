import { describe, expect, it } from 'vitest';
import { pgFixture } from '../../test-support/pg-fixture.js';
import { runCli } from '../../test-support/run-cli.js';
import type { TasksJson } from './tasks.js';

describe('x-jobs tasks', () => {
  it('prints each task with its next fire times in its own zone', async () => {
    const run = await runCli([
      'tasks',
      '--module',
      'test-support/fixtures/app.mjs',
      '--count',
      '2',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [task] = run.json<TasksJson>().tasks;
    expect(task).toMatchObject({ name: 'nightlyGreeting', tz: 'America/Bogota', state: null });
    expect(task?.next).toHaveLength(2);
    for (const occurrence of task?.next ?? []) {
      // 03:00 in Bogota (UTC-5, no DST) is 08:00 UTC, every day.
      expect(new Date(occurrence.at).toISOString()).toMatch(/T08:00:00\.000Z$/);
      expect(occurrence.local).toMatch(/^\d{4}-\d{2}-\d{2} 03:00 GMT-5$/);
    }
    expect((task?.next[1]?.at ?? 0) - (task?.next[0]?.at ?? 0)).toBe(86_400_000);

    const text = await runCli(['tasks', '--module', 'test-support/fixtures/app.mjs']);
    expect(text.stdout).toMatch(
      /^nightlyGreeting {2}0 3 \* \* \* {2}America\/Bogota {2}catch-up skip {2}→ greet$/m,
    );
    expect(text.stdout).toMatch(/next\s+\d{4}-\d{2}-\d{2} 03:00 GMT-5 \(in /);
  });

  it('with a backend: the stored watermark as settledThrough ("settled through"), and the pause flag', async () => {
    const pg = await pgFixture();
    try {
      // As a scheduler leaves it: settled through one 03:00 Bogota occurrence, then paused.
      const watermark = Date.parse('2026-11-29T08:00:00Z');
      expect(await pg.driver.schedules?.advance('nightlyGreeting', null, watermark)).toBe(true);
      await pg.driver.schedules?.setPaused('nightlyGreeting', true);

      const run = await pg.cli(['tasks', '--module', 'test-support/fixtures/app.mjs', '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json<TasksJson>().tasks[0]?.state).toEqual({ settledThrough: watermark, paused: true });

      const text = await pg.cli(['tasks', '--module', 'test-support/fixtures/app.mjs']);
      expect(text.stdout).toMatch(/^ {2}settled through {2}2026-11-29 03:00 GMT-5 \(.+ ago\) {2}paused$/m);
      expect(text.stdout).not.toContain('last fired');
    } finally {
      await pg.drop();
    }
  });

  it('refuses a --count out of range with exit 2', async () => {
    const run = await runCli(['tasks', '--module', 'test-support/fixtures/app.mjs', '--count', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('from 1 to 100');
  });
});
