import type { WorkerInfo } from '@x/jobs-core';
import { formatRelative } from '@x/jobs-dashboard';
import type { Command } from 'commander';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import { addBackendOptions, addJsonOption, type JsonFlag } from '../command-options.js';
import { renderTable } from '../output/table.js';
import { examples, operate } from './operate.js';

/** The `--json` shape of `x-jobs workers`: every worker seen within its TTL. */
export interface WorkersJson {
  readonly workers: readonly WorkerInfo[];
}

/** `x-jobs workers`: live workers with their queues, slots in use and last report. */
export function registerWorkers(program: Command, context: CommandContext): void {
  const command = program
    .command('workers')
    .description('list live workers: host, pid, queues, jobs in flight, last heartbeat')
    .addHelpText('after', examples('x-jobs workers', 'x-jobs workers --json'));
  addJsonOption(addBackendOptions(command)).action(async (flags: BackendFlags & JsonFlag) => {
    await operate(context, flags, async (backend, printer) => {
      const workers = [...(await requireIntrospection(backend.driver).workers())].sort(
        (a, b) => a.startedAt - b.startedAt,
      );
      const now = backend.driver.now();
      printer.result<WorkersJson>({ workers }, (data, p) =>
        data.workers.length === 0
          ? p.dim('No live workers.')
          : renderTable(
              [
                { header: 'WORKER' },
                { header: 'HOST' },
                { header: 'PID', align: 'right' },
                { header: 'QUEUES' },
                { header: 'IN FLIGHT', align: 'right' },
                { header: 'STARTED' },
                { header: 'LAST SEEN' },
              ],
              data.workers.map((w) => [
                p.bold(w.id),
                w.host,
                String(w.pid),
                w.queues.join(', '),
                `${w.inFlight}/${w.concurrency}`,
                formatRelative(w.startedAt, now),
                formatRelative(w.lastSeenAt, now),
              ]),
              p.dim,
            ),
      );
    });
  });
}
