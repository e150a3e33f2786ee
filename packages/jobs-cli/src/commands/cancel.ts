import { isLiveState, type JobState, JobsError, tryCancelJob } from '@x/jobs-core';
import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { registerJobOperation } from './job-operation.js';

/** The `--json` shape of `x-jobs cancel`. */
export interface CancelJson {
  readonly id: string;
  readonly cancelled: true;
  /** The live state it was in; a `running` job stops at its worker's next heartbeat. */
  readonly previousState: JobState;
  readonly reason: string | null;
}

/**
 * `x-jobs cancel <id> [--reason <text>]`: a live job becomes cancelled, through core's `tryCancelJob`:
 * the children its `step.invoke` steps wait on are cancelled too (unless a step opted out with
 * `cancelWithParent: false`), and a parent waiting on this job is woken (its step fails with
 * `X_JOB_CHILD_CANCELLED`).
 */
export function registerCancel(program: Command, context: CommandContext): void {
  registerJobOperation<CancelJson, { readonly reason?: string }>(program, context, {
    name: 'cancel',
    description: 'cancel a live job (a running one stops at its next heartbeat)',
    examples: ['x-jobs cancel 0193a6c2-… --reason "duplicate import"'],
    options: (command) => command.option('--reason <text>', 'recorded on the row and shown by show'),
    refusal: (job) =>
      isLiveState(job.state)
        ? null
        : new JobsError(
            'X_JOB_NOT_CANCELLABLE',
            `Job '${job.id}' is already ${job.state}; only live jobs can be cancelled.`,
            {
              meta: { id: job.id, state: job.state },
            },
          ),
    // Core's cancel: the cascade to children and the wake of a waiting parent; false on a race.
    apply: (_introspect, job, flags, driver) => tryCancelJob(driver, job.id, flags.reason),
    result: (job, flags) => ({
      id: job.id,
      cancelled: true,
      previousState: job.state,
      reason: flags.reason ?? null,
    }),
    human: (result, job, p) =>
      [
        `${p.yellow('Cancelled')} ${p.bold(job.name)} ${p.dim(job.id)} (was ${result.previousState}).`,
        ...(result.previousState === 'running'
          ? [p.dim('Its worker stops it at the next heartbeat; step writes after that are refused.')]
          : []),
      ].join('\n'),
  });
}
