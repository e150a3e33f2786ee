import { schedulerError } from './errors.js';
import type { TaskHandle } from './task.js';
import { taskSpec } from './task-spec.js';

/**
 * The next `n` occurrences of a task strictly after `from` (Default: now), oldest first — what
 * the CLI's `tasks` command prints. Fewer than `n` when the pattern runs out.
 */
export function nextOccurrences(
  task: TaskHandle,
  n: number,
  from: Date | number = Date.now(),
): readonly Date[] {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw schedulerError('X_SCHEDULER_OPTIONS_INVALID', `n: a non-negative integer (got ${String(n)}).`, {
      field: 'n',
    });
  }
  const start = typeof from === 'number' ? from : from.getTime();
  if (!Number.isFinite(start)) {
    throw schedulerError('X_SCHEDULER_OPTIONS_INVALID', 'from: a valid Date or epoch ms.', { field: 'from' });
  }
  const { schedule } = taskSpec(task);
  const occurrences: Date[] = [];
  let cursor = start;
  while (occurrences.length < n) {
    const next = schedule.nextAfter(cursor);
    if (next === null) break;
    occurrences.push(new Date(next));
    cursor = next;
  }
  return occurrences;
}
