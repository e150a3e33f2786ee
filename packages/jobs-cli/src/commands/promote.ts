import type { JobState } from '@x/jobs-core';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { cliError } from '../errors.js';
import { findJob } from './find-job.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs promote`. */
export interface PromoteJson {
  readonly id: string;
  readonly promoted: true;
  /** `delayed` or `suspended`; the row is due now. */
  readonly previousState: JobState;
}

/** `x-jobs promote <id>`: a delayed or sleeping job becomes due now. */
export function registerPromote(program: Command, context: CommandContext): void {
  const command = program
    .command('promote')
    .description('make a delayed or suspended (sleeping, waiting) job due now')
    .argument('<id>', 'job id')
    .addHelpText('after', examples('x-jobs promote 0193a6c2-…'));
  addJsonOption(addBackendOptions(command)).action(async (id: string, flags: BackendFlags & JsonFlag) => {
    await operate(context, flags, async (backend, printer) => {
      const introspect = requireIntrospection(backend.driver);
      const job = await findJob(introspect, id);
      const refuse = (): never => {
        throw cliError(
          'X_CLI_JOB_NOT_PROMOTABLE',
          `Job '${id}' is ${job.state}; only delayed or suspended jobs can be promoted.`,
          {
            id,
            state: job.state,
          },
        );
      };
      if (job.state !== 'delayed' && job.state !== 'suspended') refuse();
      if (!(await introspect.promote(id))) refuse();
      const data: PromoteJson = { id, promoted: true, previousState: job.state };
      printer.result(
        data,
        (result, p) =>
          `${p.green('Promoted')} ${p.bold(job.name)} ${p.dim(id)}: ${result.previousState} → due now.`,
      );
    });
  });
}
