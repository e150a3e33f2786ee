import type { Command } from 'commander';
import { chooseBackend } from '../backend/backend-choice.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, addModuleOption } from '../command-options.js';
import { runRuntime } from '../runtime/run-runtime.js';
import { addTelemetryOption, addWorkerOptions, type RuntimeFlags } from '../runtime/runtime-flags.js';
import { examples } from './operate.js';

/**
 * `x-jobs dev --module <file>`: worker + scheduler + outbox relay in one process on an embedded
 * PGlite in `./.x-jobs` (migrated on start), with a line per step: the zero-infrastructure loop.
 */
export function registerDev(program: Command, context: CommandContext): void {
  const command = program
    .command('dev')
    .description('worker + scheduler + outbox relay on embedded PGlite in ./.x-jobs, printing every step')
    .addHelpText(
      'after',
      examples(
        'x-jobs dev --module ./dist/jobs.js',
        'node --import tsx $(which x-jobs) dev --module ./src/jobs.ts --data-dir ./tmp/jobs',
      ),
    );
  addJsonOption(addTelemetryOption(addWorkerOptions(addBackendOptions(addModuleOption(command))))).action(
    async (flags: RuntimeFlags) => {
      await runRuntime(context, flags, {
        name: 'dev',
        worker: true,
        scheduler: true,
        relay: true,
        migrate: true,
        traceSteps: true,
        // The zero-infrastructure loop: PGlite unless --driver says otherwise, whatever DATABASE_URL says.
        choose: (parsed, cwd) => chooseBackend({ ...parsed, driver: parsed.driver ?? 'pglite' }, cwd),
      });
    },
  );
}
