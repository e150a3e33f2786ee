import { describe, expect, it } from 'vitest';
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

  it('refuses a --count out of range with exit 2', async () => {
    const run = await runCli(['tasks', '--module', 'test-support/fixtures/app.mjs', '--count', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('from 1 to 100');
  });
});
