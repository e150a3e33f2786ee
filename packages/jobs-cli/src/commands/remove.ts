import type { JobState } from '@x/jobs-core';
import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { cliError } from '../errors.js';
import { registerJobOperation } from './job-operation.js';

/** The `--json` shape of `x-jobs remove`. */
export interface RemoveJson {
  readonly id: string;
  readonly removed: true;
  readonly previousState: JobState;
}

/** `x-jobs remove <id>`: deletes a row that is not running, with its steps. */
export function registerRemove(program: Command, context: CommandContext): void {
  registerJobOperation<RemoveJson, object>(program, context, {
    name: 'remove',
    description: 'delete a job that is not running, with its step records',
    examples: ['x-jobs remove 0193a6c2-…'],
    refusal: (job) =>
      job.state !== 'running'
        ? null
        : cliError(
            'X_CLI_JOB_NOT_REMOVABLE',
            `Job '${job.id}' is running; it cannot be removed under its worker.`,
            {
              id: job.id,
              state: job.state,
              hint: `Cancel it first: x-jobs cancel ${job.id}`,
            },
          ),
    apply: (introspect, job) => introspect.remove(job.id),
    result: (job) => ({ id: job.id, removed: true, previousState: job.state }),
    human: (result, job, p) =>
      `${p.red('Removed')} ${p.bold(job.name)} ${p.dim(job.id)} (was ${result.previousState}) and its step records.`,
  });
}
