import { isLiveState, type JobState } from '@x/jobs-core';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { cliError } from '../errors.js';
import { findJob } from './find-job.js';
import { examples, operate } from './operate.js';

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

/** `x-jobs retry <id> [--from-step <name>]`: a dead, cancelled or done row back to ready now. */
export function registerRetry(program: Command, context: CommandContext): void {
  const command = program
    .command('retry')
    .description('put a dead, cancelled or done job back to ready now, attempts reset')
    .argument('<id>', 'job id')
    .option('--from-step <name>', 're-run this step and every later one; earlier steps replay from storage')
    .addHelpText(
      'after',
      examples('x-jobs retry 0193a6c2-…', 'x-jobs retry 0193a6c2-… --from-step welcome-email'),
    );
  addJsonOption(addBackendOptions(command)).action(
    async (id: string, flags: BackendFlags & JsonFlag & { readonly fromStep?: string }) => {
      await operate(context, flags, async (backend, printer) => {
        const introspect = requireIntrospection(backend.driver);
        const job = await findJob(introspect, id);
        if (isLiveState(job.state)) {
          throw cliError(
            'X_CLI_JOB_NOT_RETRYABLE',
            `Job '${id}' is ${job.state}, so there is nothing to retry.`,
            {
              id,
              state: job.state,
              hint:
                job.state === 'running'
                  ? `To stop it: x-jobs cancel ${id}`
                  : job.state === 'ready'
                    ? 'It is due and waits for a worker on its queue (x-jobs ls, x-jobs workers).'
                    : `To run it now: x-jobs promote ${id}`,
            },
          );
        }
        const fromStep = flags.fromStep ?? null;
        let stepsReset: string[] = [];
        if (fromStep !== null) {
          const from = job.steps.find((step) => step.name === fromStep);
          if (from === undefined) {
            throw cliError('X_CLI_STEP_NOT_FOUND', `Job '${id}' has no recorded step named '${fromStep}'.`, {
              id,
              step: fromStep,
              hint:
                job.steps.length === 0
                  ? `It has no steps recorded; retry without --from-step: x-jobs retry ${id}`
                  : `Recorded steps: ${job.steps.map((step) => step.name).join(', ')}`,
            });
          }
          stepsReset = job.steps.filter((step) => step.position >= from.position).map((step) => step.name);
        }
        const ok = await introspect.retry(id, fromStep === null ? undefined : { fromStep });
        if (!ok) {
          throw cliError(
            'X_CLI_JOB_NOT_RETRYABLE',
            `Job '${id}' changed state while retrying; run show and try again.`,
            {
              id,
            },
          );
        }
        const data: RetryJson = { id, retried: true, previousState: job.state, fromStep, stepsReset };
        printer.result(data, (result, p) =>
          [
            `${p.green('Retrying')} ${p.bold(job.name)} ${p.dim(id)}: ${result.previousState} → ready, attempts reset.`,
            result.fromStep === null
              ? p.dim('Completed steps replay from storage; the run continues where it stopped.')
              : p.dim(`Re-running from '${result.fromStep}': ${result.stepsReset.join(', ')}.`),
          ].join('\n'),
        );
      });
    },
  );
}
