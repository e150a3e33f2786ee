import type { JobEvent } from '@x/jobs-dashboard';
import { formatDuration } from '@x/jobs-dashboard';
import type { Palette } from '../output/colour.js';

const MARKS: Readonly<Record<JobEvent['event'], string>> = {
  enqueued: '+',
  started: '▶',
  step: '·',
  retried: '↻',
  suspended: '⏸',
  done: '✓',
  dead: '✗',
  cancelled: '⊘',
};

/** One `x-jobs tail` event for a human: `12:03:04 ✓ done  send 0193… (queue emails, attempt 1/3)`. */
export function jobEventLine(event: JobEvent, p: Palette): string {
  const time = new Date(event.at).toISOString().slice(11, 19);
  const colour =
    event.event === 'dead'
      ? p.red
      : event.event === 'done'
        ? p.green
        : event.event === 'retried'
          ? p.yellow
          : p.cyan;
  const head = `${p.dim(time)} ${colour(`${MARKS[event.event]} ${event.event.padEnd(9)}`)} ${p.bold(event.name)} ${p.dim(event.id)}`;
  const where = p.dim(`(queue ${event.queue}, attempt ${event.attempts}/${event.maxAttempts})`);
  const step =
    event.step === undefined
      ? ''
      : ` step ${p.bold(event.step.name)} ${event.step.status}${
          event.step.durationMs === null ? '' : ` in ${formatDuration(event.step.durationMs)}`
        }`;
  const error =
    event.error === undefined || event.error === null
      ? ''
      : ` ${p.red(event.error.code)}: ${event.error.message}`;
  return `${head}${step}${error} ${where}`;
}
