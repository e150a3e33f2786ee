import type { AttemptFailure } from '../driver/attempt-error.js';

/**
 * A failure's stack as one text, Java-style: its own stack (or `Name: message` when it has none),
 * then `Caused by: ` and each cause's stack (or `Name: message`), outermost first. What the
 * `jobs.attempt.failed` / `jobs.dead` log lines, the job span's `exception.stacktrace` and
 * `x-jobs show` print.
 */
export function failureStack(failure: Pick<AttemptFailure, 'name' | 'message' | 'stack' | 'causes'>): string {
  const head = (link: { name: string; message: string; stack: string | null }): string =>
    link.stack ?? `${link.name}: ${link.message}`;
  return [head(failure), ...failure.causes.map((cause) => `Caused by: ${head(cause)}`)].join('\n');
}
