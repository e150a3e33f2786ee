import type { LogLevel } from '@x/jobs-core';
import { formatDuration } from '@x/jobs-dashboard';
import type { Palette } from '../output/colour.js';

type Fields = Readonly<Record<string, unknown>>;

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/**
 * A structured event from the worker, executor, scheduler or relay as one line for a human, or
 * null for the chatter a live view leaves out (debug events). Unknown events print their name
 * and fields, so nothing a newer core logs is lost.
 */
export function eventLine(level: LogLevel, event: string, fields: Fields, p: Palette): string | null {
  if (level === 'debug') return null;
  const job = (): string => `${p.bold(text(fields.name))} ${p.dim(text(fields.jobId))}`;
  // The error's message and the step that threw (the stack stays in the JSON log line).
  const failure = (): string =>
    `${fields.message === undefined ? '' : ` ${text(fields.message)}`}${
      typeof fields.step === 'string' ? p.dim(` in step ${fields.step}`) : ''
    }`;
  switch (event) {
    case 'jobs.worker.started':
      return `${p.green('▶')} worker ${p.bold(text(fields.workerId))} on ${text(fields.driver)}, queues ${
        Array.isArray(fields.queues) ? fields.queues.join(', ') : text(fields.queues)
      }`;
    case 'jobs.worker.draining':
      return `${p.yellow('■')} draining (${text(fields.signal)}): no new claims; running jobs are handed back uncounted`;
    case 'jobs.worker.stopped':
      return `${p.dim('■')} worker stopped`;
    case 'jobs.attempt.failed':
      return `${p.yellow('↻')} ${job()} attempt ${text(fields.attempt)} failed: ${p.yellow(text(fields.code))}${failure()}; retry in ${formatDuration(Number(fields.retryInMs ?? 0))}`;
    case 'jobs.dead':
      return `${p.red('✗')} ${job()} dead after attempt ${text(fields.attempt)}: ${p.red(text(fields.code))}${failure()} (${text(fields.stop)})`;
    case 'jobs.lease.lost':
      return `${p.red('!')} ${job()} lease lost: another worker may run it too`;
    case 'jobs.heartbeat.failed':
      return `${p.yellow('!')} ${job()} heartbeat failed (${text(fields.code)}); the lease still has room`;
    case 'jobs.cancelled':
      return `${p.yellow('⊘')} ${job()} cancelled while running`;
    case 'scheduler.started':
      return `${p.green('▶')} scheduler started`;
    case 'scheduler.leader.acquired':
      return `${p.green('★')} scheduler leads (${text(fields.leader)}): it alone dispatches occurrences`;
    case 'scheduler.leader.lost':
      return `${p.yellow('☆')} scheduler lost leadership; another node dispatches`;
    case 'scheduler.task.initialized':
      return `${p.cyan('⏲')} task ${p.bold(text(fields.task))} armed: it fires from the next occurrence on`;
    case 'scheduler.task.fired': {
      const occurrences = Array.isArray(fields.occurrences) ? fields.occurrences.join(', ') : '';
      const deduped = Number(fields.deduped ?? 0);
      return `${p.cyan('⏲')} task ${p.bold(text(fields.task))} fired for ${occurrences}: ${text(fields.enqueued)} enqueued${
        deduped > 0 ? `, ${deduped} already queued` : ''
      }`;
    }
    case 'scheduler.stopped':
      return `${p.dim('■')} scheduler stopped`;
    case 'x-jobs.started': {
      const count = (value: unknown, noun: string): string => {
        const n = Array.isArray(value) ? value.length : 0;
        return `${n} ${noun}${n === 1 ? '' : 's'}`;
      };
      return `${p.bold(`x-jobs ${text(fields.command)}`)} on ${text(fields.backend)}: ${count(fields.jobs, 'job')}, ${count(
        fields.tasks,
        'task',
      )} from ${text(fields.module)}`;
    }
    case 'x-jobs.stopping':
      return `${p.yellow('■')} ${text(fields.signal)}: stopping (press Ctrl-C again to exit at once)`;
    case 'x-jobs.once.done': {
      const ran = Number(fields.ran ?? 0);
      return `${p.green('✓')} ran ${ran} due job${ran === 1 ? '' : 's'}; none left due`;
    }
    default: {
      const rest = Object.entries(fields)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      const mark = level === 'error' ? p.red('✗') : level === 'warn' ? p.yellow('!') : p.dim('·');
      return `${mark} ${event}${rest === '' ? '' : ` ${p.dim(rest)}`}`;
    }
  }
}
