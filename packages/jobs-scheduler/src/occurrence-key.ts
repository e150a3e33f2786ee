/**
 * The idempotency key one occurrence of a task enqueues a job under:
 * `<job's own key>@<task>@<occurrence as UTC ISO>`. It names the instant, not the wall time, so
 * the two 02:00s of a fall-back night are distinct occurrences, while two schedulers firing the
 * same occurrence collide on one live row; and it differs from the job's own key, so a manual
 * `task.enqueue()` and a scheduled fire stay distinct rows.
 */
export function occurrenceKey(jobKey: string, task: string, occurrenceMs: number): string {
  return `${jobKey}@${task}@${new Date(occurrenceMs).toISOString()}`;
}
