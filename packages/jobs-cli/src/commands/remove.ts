import type { JobState } from '@x/jobs-core';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { cliError } from '../errors.js';
import { findJob } from './find-job.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs remove`. */
export interface RemoveJson {
  readonly id: string;
  readonly removed: true;
  readonly previousState: JobState;
}

/** `x-jobs remove <id>`: deletes a row that is not running, with its steps. */
export function registerRemove(program: Command, context: CommandContext): void {
  const command = program
    .command('remove')
    .description('delete a job that is not running, with its step records')
    .argument('<id>', 'job id')
    .addHelpText('after', examples('x-jobs remove 0193a6c2-…'));
  addJsonOption(addBackendOptions(command)).action(async (id: string, flags: BackendFlags & JsonFlag) => {
    await operate(context, flags, async (backend, printer) => {
      const introspect = requireIntrospection(backend.driver);
      const job = await findJob(introspect, id);
      const refuse = (): never => {
        throw cliError(
          'X_CLI_JOB_NOT_REMOVABLE',
          `Job '${id}' is running; it cannot be removed under its worker.`,
          {
            id,
            state: job.state,
            hint: `Cancel it first: x-jobs cancel ${id}`,
          },
        );
      };
      if (job.state === 'running') refuse();
      if (!(await introspect.remove(id))) refuse();
      const data: RemoveJson = { id, removed: true, previousState: job.state };
      printer.result(
        data,
        (result, p) =>
          `${p.red('Removed')} ${p.bold(job.name)} ${p.dim(id)} (was ${result.previousState}) and its step records.`,
      );
    });
  });
}
