import { type ShowJson, toJobDetailView } from '@x/jobs-dashboard';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { renderJobDetail } from '../views/job-detail-view.js';
import { findJob } from './find-job.js';
import { examples, operate } from './operate.js';

/** `x-jobs show <id>`: the row, its attempts, last error, stop reason, steps, progress and redacted input. */
export function registerShow(program: Command, context: CommandContext): void {
  const command = program
    .command('show')
    .description('show one job: state, attempts, last error, stop reason, steps, progress, redacted input')
    .argument('<id>', 'job id')
    .option('--redact-key <key...>', 'also redact values of these keys (added to password, token, secret, …)')
    .addHelpText(
      'after',
      examples('x-jobs show 0193a6c2-…', 'x-jobs show 0193a6c2-… --json | jq .job.steps'),
    );
  addJsonOption(addBackendOptions(command)).action(
    async (id: string, flags: BackendFlags & JsonFlag & { readonly redactKey?: readonly string[] }) => {
      await operate(context, flags, async (backend, printer) => {
        const detail = await findJob(requireIntrospection(backend.driver), id);
        const data: ShowJson = { job: toJobDetailView(detail, flags.redactKey ?? []) };
        printer.result(data, (shown, palette) => renderJobDetail(shown, palette, backend.driver.now()));
      });
    },
  );
}
