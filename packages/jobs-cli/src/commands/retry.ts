import { isLiveState, type JobDetail, type JobState } from '@x/jobs-core';
import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { cliError } from '../errors.js';
import { registerJobOperation } from './job-operation.js';

/** The `--json` shape of `x-jobs retry`. */
export interface RetryJson {
  readonly id: string;
  readonly retried: true;
  /** The state the row left (`dead`, `cancelled` or `done`); it is `ready` now. */
  readonly previousState: JobState;
  /** The step the run re-executes from, or null for a plain retry (every completed step replays). */
  readonly fromStep: string | null;
  /** Steps whose records were deleted so they run again (empty without `--from-step`). */
  readonly stepsReset: readonly string[];
}

interface RetryFlags {
  readonly fromStep?: string;
}

/** `x-jobs retry <id> [--from-step <name>]`: a dead, cancelled or done row back to ready now. */
export function registerRetry(program: Command, context: CommandContext): void {
  registerJobOperation<RetryJson, RetryFlags>(program, context, {
    name: 'retry',
    description: 'put a dead, cancelled or done job back to ready now, attempts reset',
    examples: ['x-jobs retry 0193a6c2-…', 'x-jobs retry 0193a6c2-… --from-step welcome-email'],
    options: (command) =>
      command.option(
        '--from-step <name>',
        're-run this step and every later one; earlier steps replay from storage',
      ),
    refusal: (job, flags) => liveRefusal(job) ?? unknownStep(job, flags.fromStep),
    apply: (introspect, job, flags) =>
      introspect.retry(job.id, flags.fromStep === undefined ? undefined : { fromStep: flags.fromStep }),
    result: (job, flags) => ({
      id: job.id,
      retried: true,
      previousState: job.state,
      fromStep: flags.fromStep ?? null,
      stepsReset: stepsFrom(job, flags.fromStep),
    }),
    human: (result, job, p) =>
      [
        `${p.green('Retrying')} ${p.bold(job.name)} ${p.dim(job.id)}: ${result.previousState} → ready, attempts reset.`,
        result.fromStep === null
          ? p.dim('Completed steps replay from storage; the run continues where it stopped.')
          : p.dim(`Re-running from '${result.fromStep}': ${result.stepsReset.join(', ')}.`),
      ].join('\n'),
  });
}

function liveRefusal(job: JobDetail): Error | null {
  if (!isLiveState(job.state)) return null;
  return cliError(
    'X_CLI_JOB_NOT_RETRYABLE',
    `Job '${job.id}' is ${job.state}, so there is nothing to retry.`,
    {
      id: job.id,
      state: job.state,
      hint:
        job.state === 'running'
          ? `To stop it: x-jobs cancel ${job.id}`
          : job.state === 'ready'
            ? 'It is due and waits for a worker on its queue (x-jobs ls, x-jobs workers).'
            : `To run it now: x-jobs promote ${job.id}`,
    },
  );
}

function unknownStep(job: JobDetail, fromStep: string | undefined): Error | null {
  if (fromStep === undefined || job.steps.some((step) => step.name === fromStep)) return null;
  return cliError('X_CLI_STEP_NOT_FOUND', `Job '${job.id}' has no recorded step named '${fromStep}'.`, {
    id: job.id,
    step: fromStep,
    hint:
      job.steps.length === 0
        ? `It has no steps recorded; retry without --from-step: x-jobs retry ${job.id}`
        : `Recorded steps: ${job.steps.map((step) => step.name).join(', ')}`,
  });
}

/** The step named and every later one (by position): what `--from-step` resets. */
function stepsFrom(job: JobDetail, fromStep: string | undefined): string[] {
  const from = job.steps.find((step) => step.name === fromStep);
  if (from === undefined) return [];
  return job.steps.filter((step) => step.position >= from.position).map((step) => step.name);
}
