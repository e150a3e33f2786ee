import { JOB_STATES, type JobState } from '@x/jobs-core';
import { listJobs } from '@x/jobs-dashboard';
import { type Command, Option } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { parseLimit } from '../parse-limit.js';
import { renderJobList } from '../views/job-summary-view.js';
import { examples, operate } from './operate.js';

interface JobsFlags extends BackendFlags, JsonFlag {
  readonly queue?: string;
  readonly state?: JobState;
  readonly name?: string;
  readonly tenant?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/**
 * `x-jobs jobs`: jobs in any state, newest enqueued first, a page at a time, filtered by queue,
 * state, name and tenant. It reads through `listJobs` of @x/jobs-dashboard, the function the
 * dashboard's jobs page reads, so the two list the same rows.
 */
export function registerJobs(program: Command, context: CommandContext): void {
  const command = program
    .command('jobs')
    .description('list jobs, newest first: by queue, state, name and tenant, a page at a time')
    .option('--queue <queue>', 'only this queue')
    .addOption(new Option('--state <state>', 'only this state').choices(JOB_STATES))
    .option('--name <job>', 'only this job name')
    .option('--tenant <id>', 'only this tenant')
    .option('--limit <n>', 'rows per page, 1-1000 (default: 50)', parseLimit)
    .option('--cursor <cursor>', 'the next page, as printed under the previous one')
    .addHelpText(
      'after',
      examples(
        'x-jobs jobs --queue emails --state running',
        'x-jobs jobs --tenant org_42 --limit 20 --json | jq -r .nextCursor',
      ),
    );
  addJsonOption(addBackendOptions(command)).action(async (flags: JobsFlags) => {
    await operate(context, flags, async (backend, printer) => {
      const data = await listJobs(requireIntrospection(backend.driver), {
        ...(flags.queue === undefined ? {} : { queue: flags.queue }),
        ...(flags.state === undefined ? {} : { state: flags.state }),
        ...(flags.name === undefined ? {} : { name: flags.name }),
        ...(flags.tenant === undefined ? {} : { tenantId: flags.tenant }),
        ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
        ...(flags.limit === undefined ? {} : { limit: flags.limit }),
      });
      printer.result(data, (list, palette) =>
        renderJobList(list, palette, backend.driver.now(), 'No jobs match.'),
      );
    });
  });
}
