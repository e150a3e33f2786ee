import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, addModuleOption } from '../command-options.js';
import { runRuntime } from '../runtime/run-runtime.js';
import { addTelemetryOption, type RuntimeFlags } from '../runtime/runtime-flags.js';
import { examples } from './operate.js';

/** `x-jobs scheduler --module <file>`: dispatches the module's cron tasks under a leader lease. */
export function registerScheduler(program: Command, context: CommandContext): void {
  const command = program
    .command('scheduler')
    .description("dispatch the module's cron tasks (one leader across processes) until SIGTERM")
    .addHelpText('after', examples('DATABASE_URL=postgres://… x-jobs scheduler --module ./dist/jobs.js'));
  addJsonOption(addTelemetryOption(addBackendOptions(addModuleOption(command)))).action(
    async (flags: RuntimeFlags) => {
      await runRuntime(context, flags, {
        name: 'scheduler',
        worker: false,
        scheduler: true,
        relay: false,
        migrate: false,
        traceSteps: false,
      });
    },
  );
}
