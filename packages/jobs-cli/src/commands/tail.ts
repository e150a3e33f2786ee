import { JobTail } from '@x/jobs-dashboard';
import type { Command } from 'commander';
import { type BackendFlags, chooseBackend } from '../backend/backend-choice.js';
import { withBackend } from '../backend/open-backend.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { Printer } from '../output/printer.js';
import { integerOption } from '../parse-integer.js';
import { jobEventLine } from '../views/job-event-line.js';
import { examples } from './operate.js';

interface TailFlags extends BackendFlags, JsonFlag {
  readonly queue?: string;
  readonly name?: string;
  readonly tenant?: string;
  readonly interval?: number;
}

const parseInterval = integerOption(
  100,
  60_000,
  'Expected milliseconds from 100 to 60000, e.g. --interval 1000.',
);

/**
 * `x-jobs tail`: follows job events live (enqueued, started, step, retried, suspended, done,
 * dead, cancelled) until Ctrl-C, one line each (one JSON object per line under `--json`). It
 * polls the introspection API through `JobTail` of @x/jobs-dashboard, so it follows every driver
 * alike; a driver wake only announces enqueues, so it could not report settles or steps.
 */
export function registerTail(program: Command, context: CommandContext): void {
  const command = program
    .command('tail')
    .description('follow job events live (started, step, retried, dead, …) until Ctrl-C')
    .option('--queue <queue>', 'only this queue')
    .option('--name <job>', 'only this job name')
    .option('--tenant <id>', 'only this tenant')
    .option('--interval <ms>', 'how often to look, 100-60000 ms (default: 1000)', parseInterval)
    .addHelpText(
      'after',
      examples('x-jobs tail --queue emails', 'x-jobs tail --json | jq -c "select(.event == \\"dead\\")"'),
    );
  addJsonOption(addBackendOptions(command)).action(async (flags: TailFlags) => {
    const printer = new Printer(context.io, { json: flags.json === true });
    await withBackend(chooseBackend(flags, context.io.cwd), async (backend) => {
      const tail = new JobTail(requireIntrospection(backend.driver), {
        ...(flags.queue === undefined ? {} : { queue: flags.queue }),
        ...(flags.name === undefined ? {} : { name: flags.name }),
        ...(flags.tenant === undefined ? {} : { tenantId: flags.tenant }),
      });
      let stopped = false;
      let wake: () => void = () => {};
      const unsubscribe = context.io.onStopSignal(() => {
        stopped = true;
        wake();
      });
      try {
        await tail.poll(backend.driver.now());
        const every = flags.interval ?? 1000;
        context.io.stderr.write(`x-jobs tail: following job events every ${every}ms; Ctrl-C stops.\n`);
        while (!stopped) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, every);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (stopped) break;
          for (const event of await tail.poll(backend.driver.now())) {
            if (printer.json) printer.stdout.write(`${JSON.stringify(event)}\n`);
            else printer.stdout.write(`${jobEventLine(event, printer.palette)}\n`);
          }
        }
      } finally {
        unsubscribe();
      }
    });
  });
}
