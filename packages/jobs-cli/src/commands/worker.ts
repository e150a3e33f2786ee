import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, addModuleOption } from '../command-options.js';
import { runRuntime } from '../runtime/run-runtime.js';
import { addTelemetryOption, addWorkerOptions, type RuntimeFlags } from '../runtime/runtime-flags.js';
import { examples } from './operate.js';

/** `x-jobs worker --module <file>`: a production worker; SIGTERM drains it. */
export function registerWorker(program: Command, context: CommandContext): void {
  const command = program
    .command('worker')
    .description(
      "run a worker for the module's jobs until SIGTERM (drain: interrupted jobs go back uncounted)",
    )
    .option('--once', 'run every job due now, then exit (no waiting for delayed jobs)')
    .addHelpText(
      'after',
      examples(
        'DATABASE_URL=postgres://… x-jobs worker --module ./dist/jobs.js --concurrency 20',
        'x-jobs worker --module ./dist/jobs.js --queues emails --otel otlp',
        'node --import tsx $(which x-jobs) worker --module ./src/jobs.ts',
      ),
    );
  addJsonOption(addTelemetryOption(addWorkerOptions(addBackendOptions(addModuleOption(command))))).action(
    async (flags: RuntimeFlags) => {
      await runRuntime(context, flags, {
        name: 'worker',
        worker: true,
        scheduler: false,
        relay: false,
        migrate: false,
        traceSteps: false,
      });
    },
  );
}
