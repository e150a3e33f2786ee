import type { ExecutionObserver, JobsLogger } from '@x/jobs-core';
import type { Narrator } from './narrator.js';

/**
 * What the worker, scheduler and relay report, said in the live view: failed attempts (and why
 * only the failed step runs again), dead letters, task fires and leadership. Routine chatter is
 * left out; anything at warn or above that is not recognised is shown as is.
 */
export function narratingLogger(narrator: Narrator): JobsLogger {
  const { style } = narrator;
  return {
    log(level, event, fields = {}) {
      const get = (key: string): string => String(fields[key] ?? '');
      switch (event) {
        case 'jobs.dead':
          narrator.say('worker', `${style.red('✗')} ${get('name')} is dead: ${get('code')} (${get('stop')})`);
          return;
        case 'jobs.attempt.failed': {
          const seconds = (Number(fields.retryInMs ?? 0) / 1000).toFixed(1);
          narrator.say(
            'worker',
            `${style.yellow('↻')} ${get('name')} attempt ${get('attempt')} failed with ${style.yellow(get('code'))}: retry in ${seconds}s. Only the failed step runs again; completed steps replay from storage.`,
          );
          return;
        }
        case 'scheduler.leader.acquired':
          narrator.say('cron', 'scheduler holds the leader lease: it alone fires occurrences');
          return;
        case 'scheduler.task.initialized':
          narrator.say('cron', `task ${get('task')} armed; it fires from its next occurrence on`);
          return;
        case 'scheduler.task.fired': {
          const at = Array.isArray(fields.occurrences) ? fields.occurrences.join(', ') : '';
          narrator.say('cron', `task ${get('task')} fired for ${at} → sendUsageDigest enqueued`);
          return;
        }
        case 'scheduler.catch_up.capped':
          narrator.say(
            'cron',
            `task ${get('task')} missed occurrences while the demo was stopped; catch-up '${get('catchUp')}' fires only the latest`,
          );
          return;
        default:
          if (level === 'warn' || level === 'error') {
            const mark = level === 'error' ? style.red('!') : style.yellow('!');
            narrator.say('worker', `${mark} ${event} ${JSON.stringify(fields)}`);
          }
      }
    },
  };
}

/** How often a step's code ran, and how often its stored result was read back instead. */
export interface StepCounts {
  ran: number;
  replayed: number;
}

/**
 * Counts, per `job/step`, real executions and replays (what the summary shows), and says which
 * steps a re-entered run replayed from storage instead of running again.
 */
export function replayNarration(narrator: Narrator): ExecutionObserver & {
  readonly counts: ReadonlyMap<string, StepCounts>;
} {
  const counts = new Map<string, StepCounts>();
  const count = (key: string): StepCounts => {
    const found = counts.get(key) ?? { ran: 0, replayed: 0 };
    counts.set(key, found);
    return found;
  };
  const replayed = new Map<string, string[]>();
  const flush = (jobId: string): void => {
    const steps = replayed.get(jobId);
    if (steps === undefined || steps.length === 0) return;
    narrator.say('step', narrator.style.dim(`↺ ${steps.join(', ')}: replayed from storage, not run again`));
    replayed.delete(jobId);
  };
  return {
    counts,
    stepReplayed(run, step) {
      replayed.set(run.jobId, [...(replayed.get(run.jobId) ?? []), step]);
      count(`${run.name}/${step}`).replayed += 1;
    },
    stepExecuted(run, step) {
      flush(run.jobId);
      count(`${run.name}/${step}`).ran += 1;
    },
  };
}
