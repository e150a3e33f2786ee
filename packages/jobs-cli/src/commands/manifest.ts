import type { JobDescriptor, JobManifest } from '@x/jobs-core';
import { formatDuration } from '@x/jobs-dashboard';
import type { Command } from 'commander';
import { loadAppModule } from '../app-module/load-app-module.js';
import type { CommandContext } from '../command-context.js';
import { addJsonOption, addModuleOption, type JsonFlag, type ModuleFlag } from '../command-options.js';
import type { Palette } from '../output/colour.js';
import { Printer } from '../output/printer.js';
import { renderTable } from '../output/table.js';
import { examples } from './operate.js';

/** The `--json` shape of `x-jobs manifest`: core's `inspectManifest()` as is. */
export type ManifestJson = JobManifest;

/** `x-jobs manifest --module <file>`: every registered job's and task's declaration. */
export function registerManifest(program: Command, context: CommandContext): void {
  const command = program
    .command('manifest')
    .description('print every job and task the module registers: queue, retry, limits, tenant, cron')
    .addHelpText(
      'after',
      examples('x-jobs manifest --module ./dist/jobs.js', 'x-jobs manifest --module ./dist/jobs.js --json'),
    );
  addJsonOption(addModuleOption(command)).action(async (flags: ModuleFlag & JsonFlag) => {
    const printer = new Printer(context.io, { json: flags.json === true });
    const app = await loadAppModule(flags.module ?? '', context.io.cwd);
    const data: ManifestJson = app.registry.manifest();
    printer.result(data, renderManifest);
  });
}

function renderManifest(data: ManifestJson, p: Palette): string {
  const sections: string[] = [];
  if (data.jobs.length > 0) {
    sections.push(
      renderTable(
        [
          { header: 'JOB' },
          { header: 'QUEUE' },
          { header: 'PRIORITY', align: 'right' },
          { header: 'RETRY' },
          { header: 'CONCURRENCY' },
          { header: 'TIMEOUT' },
          { header: 'TENANT' },
        ],
        data.jobs.map((job) => [
          p.bold(job.name),
          job.queue,
          String(job.priority),
          describeRetry(job),
          job.concurrency === null
            ? p.dim('—')
            : `${job.concurrency.limit}${job.concurrency.keyed ? ' per key' : ''}, ${job.concurrency.whenBusy}`,
          job.timeoutMs === null ? p.dim('—') : formatDuration(job.timeoutMs),
          job.tenant,
        ]),
        p.dim,
      ),
    );
  }
  if (data.tasks.length > 0) {
    const tasks = data.tasks as readonly {
      name: string;
      cron: string;
      tz: string;
      catchUp: string;
      jobs: readonly string[];
    }[];
    sections.push(
      renderTable(
        [
          { header: 'TASK' },
          { header: 'CRON' },
          { header: 'ZONE' },
          { header: 'CATCH-UP' },
          { header: 'ENQUEUES' },
        ],
        tasks.map((task) => [p.bold(task.name), task.cron, task.tz, task.catchUp, task.jobs.join(', ')]),
        p.dim,
      ),
    );
  }
  return sections.join('\n\n');
}

function describeRetry(job: JobDescriptor): string {
  const { attempts, backoff, delay } = job.retry;
  return attempts === 1 ? 'none' : `${attempts}× ${backoff} from ${formatDuration(delay)}`;
}
