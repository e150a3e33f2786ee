import { type JobListJson, toJobSummary } from '@x/jobs-dashboard';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { parseLimit } from '../parse-limit.js';
import { renderJobList } from '../views/job-summary-view.js';
import { examples, operate } from './operate.js';

interface DeadFlags extends BackendFlags, JsonFlag {
  readonly queue?: string;
  readonly name?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/** `x-jobs dead`: dead-lettered jobs, newest first, a page at a time. */
export function registerDead(program: Command, context: CommandContext): void {
  const command = program
    .command('dead')
    .description('list dead-lettered jobs, newest first, with why they stopped')
    .option('--queue <queue>', 'only this queue')
    .option('--name <job>', 'only this job name')
    .option('--limit <n>', 'rows per page, 1-1000 (default: 50)', parseLimit)
    .option('--cursor <cursor>', 'the next page, as printed under the previous one')
    .addHelpText('after', examples('x-jobs dead --queue emails', 'x-jobs dead --json | jq -r .jobs[].id'));
  addJsonOption(addBackendOptions(command)).action(async (flags: DeadFlags) => {
    await operate(context, flags, async (backend, printer) => {
      const page = await requireIntrospection(backend.driver).list({
        state: 'dead',
        ...(flags.queue === undefined ? {} : { queue: flags.queue }),
        ...(flags.name === undefined ? {} : { name: flags.name }),
        ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
        limit: flags.limit ?? 50,
      });
      const data: JobListJson = { jobs: page.jobs.map(toJobSummary), nextCursor: page.nextCursor };
      printer.result(data, (list, palette) =>
        renderJobList(list, palette, backend.driver.now(), 'No dead jobs.'),
      );
    });
  });
}
