import { isLiveState, type JobState, JobsError } from '@x/jobs-core';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { findJob } from './find-job.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs cancel`. */
export interface CancelJson {
  readonly id: string;
  readonly cancelled: true;
  /** The live state it was in; a `running` job stops at its worker's next heartbeat. */
  readonly previousState: JobState;
  readonly reason: string | null;
}

/** `x-jobs cancel <id> [--reason <text>]`: a live job becomes cancelled. */
export function registerCancel(program: Command, context: CommandContext): void {
  const command = program
    .command('cancel')
    .description('cancel a live job (a running one stops at its next heartbeat)')
    .argument('<id>', 'job id')
    .option('--reason <text>', 'recorded on the row and shown by show')
    .addHelpText('after', examples('x-jobs cancel 0193a6c2-… --reason "duplicate import"'));
  addJsonOption(addBackendOptions(command)).action(
    async (id: string, flags: BackendFlags & JsonFlag & { readonly reason?: string }) => {
      await operate(context, flags, async (backend, printer) => {
        const introspect = requireIntrospection(backend.driver);
        const job = await findJob(introspect, id);
        const notCancellable = (): JobsError =>
          new JobsError(
            'X_JOB_NOT_CANCELLABLE',
            `Job '${id}' is already ${job.state}; only live jobs can be cancelled.`,
            {
              meta: { id, state: job.state },
            },
          );
        if (!isLiveState(job.state)) throw notCancellable();
        if (!(await introspect.cancel(id, flags.reason))) throw notCancellable();
        const data: CancelJson = {
          id,
          cancelled: true,
          previousState: job.state,
          reason: flags.reason ?? null,
        };
        printer.result(data, (result, p) =>
          [
            `${p.yellow('Cancelled')} ${p.bold(job.name)} ${p.dim(id)} (was ${result.previousState}).`,
            ...(result.previousState === 'running'
              ? [p.dim('Its worker stops it at the next heartbeat; step writes after that are refused.')]
              : []),
          ].join('\n'),
        );
      });
    },
  );
}
