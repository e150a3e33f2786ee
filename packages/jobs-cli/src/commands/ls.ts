import { type LsJson, toQueueViews } from '@x/jobs-dashboard';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { renderQueues } from '../views/queue-view.js';
import { examples, operate } from './operate.js';

/** `x-jobs ls`: every queue's depth by state, oldest ready age, dead count and pause flag. */
export function registerLs(program: Command, context: CommandContext): void {
  const command = program
    .command('ls')
    .description('list queues: rows by state, age of the oldest ready row, dead count, paused')
    .addHelpText('after', examples('x-jobs ls', 'DATABASE_URL=postgres://… x-jobs ls --json'));
  addJsonOption(addBackendOptions(command)).action(async (flags: BackendFlags & JsonFlag) => {
    await operate(context, flags, async (backend, printer) => {
      const data: LsJson = { queues: toQueueViews(await backend.driver.stats()) };
      printer.result(data, renderQueues);
    });
  });
}
