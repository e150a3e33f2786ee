import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CronTasksSource, createDashboard, toNodeListener } from '@x/jobs-dashboard';
import type { TaskHandle } from '@x/jobs-scheduler';
import { type Command, Option } from 'commander';
import { loadAppModule } from '../app-module/load-app-module.js';
import { type BackendFlags, chooseBackend } from '../backend/backend-choice.js';
import { importOptional } from '../backend/import-optional.js';
import { withBackend } from '../backend/open-backend.js';
import type { CommandContext } from '../command-context.js';
import {
  addBackendOptions,
  addJsonOption,
  addModuleOption,
  type JsonFlag,
  type ModuleFlag,
} from '../command-options.js';
import { cliError } from '../errors.js';
import { Printer } from '../output/printer.js';
import { integerOption } from '../parse-integer.js';
import { examples } from './operate.js';

/** The line `x-jobs dashboard --json` prints once it listens. */
export interface DashboardJson {
  readonly event: 'dashboard.listening';
  /** The URL to open; it carries the token (`?token=…`) unless the dashboard is read-only. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly readOnly: boolean;
}

interface DashboardFlags extends BackendFlags, JsonFlag, ModuleFlag {
  readonly port?: number;
  readonly host?: string;
  readonly token?: string;
  readonly readOnly?: boolean;
  readonly basePath?: string;
}

const parsePort = integerOption(
  0,
  65_535,
  'Expected a port from 0 to 65535 (0 picks a free one), e.g. --port 4600.',
);

async function cronTasks(
  flags: DashboardFlags,
  cwd: string,
): Promise<CronTasksSource<TaskHandle> | undefined> {
  if (flags.module === undefined) return undefined;
  const app = await loadAppModule(flags.module, cwd);
  const scheduler = await importOptional(() => import('@x/jobs-scheduler'), {
    code: 'X_CLI_PACKAGE_MISSING',
    packages: ['@x/jobs-scheduler'],
    purpose: 'the cron tasks page of x-jobs dashboard',
  });
  return {
    handles: app.registry.tasks() as readonly TaskHandle[],
    nextOccurrences: (task, n, from) => scheduler.nextOccurrences(task, n, from),
  };
}

/**
 * `x-jobs dashboard`: serves @x/jobs-dashboard on 127.0.0.1 (by default) until Ctrl-C. Without
 * `--token` it makes a random one and prints the URL that carries it; `--read-only` needs none
 * and allows no action. `--module` adds the cron tasks page.
 */
export function registerDashboard(program: Command, context: CommandContext): void {
  const command = program
    .command('dashboard')
    .description('serve the web dashboard (queues, jobs, dead letters, workers, cron tasks) until Ctrl-C')
    .option('--port <port>', 'port to listen on (default: 4600; 0 picks a free one)', parsePort)
    .option('--host <host>', 'address to bind (default: 127.0.0.1, this machine only)')
    .addOption(
      new Option('--token <token>', 'the token actions need (default: a random one, printed in the URL)').env(
        'X_JOBS_DASHBOARD_TOKEN',
      ),
    )
    .option('--read-only', 'show everything, allow no action (needs no token)')
    .option('--base-path <path>', "serve under this path, e.g. '/jobs' behind a proxy (default: /)")
    .addHelpText(
      'after',
      examples(
        'DATABASE_URL=postgres://… x-jobs dashboard',
        'x-jobs dashboard --module ./dist/jobs.js --port 8080 --read-only',
      ),
    );
  addJsonOption(addBackendOptions(addModuleOption(command, false))).action(async (flags: DashboardFlags) => {
    const printer = new Printer(context.io, { json: flags.json === true });
    const tasks = await cronTasks(flags, context.io.cwd);
    const readOnly = flags.readOnly === true;
    const token = readOnly ? undefined : (flags.token ?? randomToken());
    const host = flags.host ?? '127.0.0.1';
    await withBackend(chooseBackend(flags, context.io.cwd), async (backend) => {
      const handler = createDashboard({
        driver: backend.driver,
        readOnly,
        ...(token === undefined ? {} : { token }),
        ...(tasks === undefined ? {} : { tasks }),
        ...(flags.basePath === undefined ? {} : { basePath: flags.basePath }),
      });
      const server = createServer(toNodeListener(handler));
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error) =>
          reject(
            cliError(
              'X_CLI_DASHBOARD_LISTEN_FAILED',
              `Cannot listen on ${host}:${flags.port ?? 4600}: ${error.message}`,
              {
                host,
                port: flags.port ?? 4600,
                hint: 'Pick another port with --port, or --port 0 for a free one.',
              },
            ),
          ),
        );
        server.listen(flags.port ?? 4600, host, resolve);
      });
      const { port } = server.address() as AddressInfo;
      const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const url = `${origin}${handler.basePath}/${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
      const data: DashboardJson = { event: 'dashboard.listening', url, host, port, readOnly };
      if (printer.json) printer.stdout.write(`${JSON.stringify(data)}\n`);
      else {
        printer.stdout.write(`x-jobs dashboard on ${backend.driver.name}: ${url}\n`);
        printer.note(readOnly ? 'Read-only: no action is allowed.' : 'Actions need the token in that URL.');
      }
      if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
        context.io.stderr.write(`x-jobs dashboard: listening on ${host}: reachable from other machines.\n`);
      }
      await new Promise<void>((resolve) => {
        const unsubscribe = context.io.onStopSignal(() => {
          unsubscribe();
          resolve();
        });
      });
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    });
  });
}

function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
}
