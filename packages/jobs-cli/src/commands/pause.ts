import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { usageError } from '../errors.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs pause` and `x-jobs resume`. */
export interface PauseJson {
  readonly queue: string;
  /** The flag after the command (both commands are idempotent). */
  readonly paused: boolean;
}

/** Registers `x-jobs pause <queue>` and `x-jobs resume <queue>`. */
export function registerPause(program: Command, context: CommandContext): void {
  for (const paused of [true, false]) {
    const name = paused ? 'pause' : 'resume';
    const command = program
      .command(name)
      .description(
        paused
          ? 'stop workers claiming from a queue (running jobs finish; enqueues still land)'
          : 'let workers claim from a paused queue again',
      )
      .argument('<queue>', 'queue name')
      .addHelpText('after', examples(`x-jobs ${name} emails`));
    addJsonOption(addBackendOptions(command)).action(
      async (queue: string, flags: BackendFlags & JsonFlag) => {
        if (queue.trim() === '') {
          throw usageError('The queue name is empty.', { hint: "Run 'x-jobs ls' to see the queues." });
        }
        await operate(context, flags, async (backend, printer) => {
          const introspect = requireIntrospection(backend.driver);
          await (paused ? introspect.pause(queue) : introspect.resume(queue));
          const data: PauseJson = { queue, paused };
          printer.result(data, (result, p) =>
            result.paused
              ? `${p.yellow('Paused')} ${p.bold(queue)}: workers skip it until 'x-jobs resume ${queue}'.`
              : `${p.green('Resumed')} ${p.bold(queue)}: workers claim from it again.`,
          );
        });
      },
    );
  }
}
