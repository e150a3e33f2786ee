import { formatInZone, formatRelative } from '@x/jobs-dashboard';
import type { TaskHandle } from '@x/jobs-scheduler';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { loadAppModule } from '../app-module/load-app-module.js';
import { type BackendFlags, chooseBackend } from '../backend/backend-choice.js';
import { importOptional } from '../backend/import-optional.js';
import { withBackend } from '../backend/open-backend.js';
import { requireExistingDataDir } from '../backend/require-data-dir.js';
import type { CommandContext } from '../command-context.js';
import {
  addBackendOptions,
  addJsonOption,
  addModuleOption,
  type JsonFlag,
  type ModuleFlag,
} from '../command-options.js';
import { Printer } from '../output/printer.js';
import { examples } from './operate.js';

/** One upcoming fire time. */
export interface OccurrenceView {
  /** Epoch ms. */
  readonly at: number;
  /** Wall-clock time in the task's zone with its offset: `2026-11-30 03:00 GMT-5`. */
  readonly local: string;
}

/**
 * A task in `x-jobs tasks --json`: its manifest row (the scheduler's `TaskDescriptor`, spelled out
 * here so the CLI's types compile without the optional `@x/jobs-scheduler`), plus what follows.
 */
export interface TaskView {
  readonly kind: 'task';
  readonly name: string;
  readonly cron: string;
  /** The canonical IANA zone. */
  readonly tz: string;
  readonly catchUp: 'skip' | 'run-once' | 'run-all';
  readonly maxCatchUp: number;
  /** The names of the jobs it enqueues, in declaration order. */
  readonly jobs: readonly string[];
  readonly next: readonly OccurrenceView[];
  /**
   * What the backend's schedule store holds, or null when no backend was given or no scheduler has
   * stored the task yet. `settledThrough` is the watermark (epoch ms): occurrences up to it are
   * settled, those after it still to fire. Usually the last occurrence dispatched, but a scheduler
   * also sets it to "now" when it first sees the task and past the missed occurrences a catch-up
   * drops, so it is not "last fired". Null while only paused (no scheduler has run it).
   */
  readonly state: { readonly settledThrough: number | null; readonly paused: boolean } | null;
}

/** The `--json` shape of `x-jobs tasks`. */
export interface TasksJson {
  readonly tasks: readonly TaskView[];
}

interface TasksFlags extends BackendFlags, JsonFlag, ModuleFlag {
  readonly count?: number;
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 100) {
    throw new InvalidArgumentError('Expected a whole number from 1 to 100, e.g. --count 5.');
  }
  return count;
}

/**
 * `x-jobs tasks --module <file>`: every cron task with its next fire times in its own zone; with
 * a backend given (`--driver` or a URL), also the time its occurrences are settled through and
 * whether it is paused.
 */
export function registerTasks(program: Command, context: CommandContext): void {
  const command = program
    .command('tasks')
    .description(
      'list cron tasks with their next fire times in their zones (and settled-through time, with a backend)',
    )
    .option('--count <n>', 'upcoming fire times per task, 1-100 (default: 3)', parseCount)
    .addHelpText(
      'after',
      examples(
        'x-jobs tasks --module ./dist/jobs.js',
        'DATABASE_URL=postgres://… x-jobs tasks --module ./dist/jobs.js --json',
      ),
    );
  addJsonOption(addBackendOptions(addModuleOption(command))).action(async (flags: TasksFlags) => {
    const printer = new Printer(context.io, { json: flags.json === true });
    const app = await loadAppModule(flags.module ?? '', context.io.cwd);
    const scheduler = await importOptional(() => import('@x/jobs-scheduler'), {
      code: 'X_CLI_PACKAGE_MISSING',
      packages: ['@x/jobs-scheduler'],
      purpose: 'x-jobs tasks',
    });
    const handles = app.registry.tasks() as readonly TaskHandle[];
    const now = Date.now();
    const explicitBackend =
      flags.driver !== undefined ||
      flags.databaseUrl !== undefined ||
      flags.redisUrl !== undefined ||
      flags.dataDir !== undefined;
    const choice = explicitBackend ? chooseBackend(flags, context.io.cwd) : undefined;
    if (choice !== undefined) await requireExistingDataDir(choice, context.io.cwd);
    const states =
      choice === undefined
        ? []
        : await withBackend(choice, async (backend) => {
            const store = backend.driver.schedules;
            return store === undefined ? [] : store.list();
          });
    const data: TasksJson = {
      tasks: handles.map((handle) => {
        const descriptor = handle.describe();
        const state = states.find((candidate) => candidate.task === descriptor.name);
        return {
          ...descriptor,
          next: scheduler.nextOccurrences(handle, flags.count ?? 3, now).map((date) => ({
            at: date.getTime(),
            local: formatInZone(date.getTime(), descriptor.tz),
          })),
          state: state === undefined ? null : { settledThrough: state.watermark, paused: state.paused },
        };
      }),
    };
    printer.result(data, (shown, p) =>
      shown.tasks.length === 0
        ? p.dim('The module registers no tasks.')
        : shown.tasks
            .map((task) => {
              const label = (text: string): string => `  ${p.dim(text.padEnd(17))}`;
              const lines = [
                `${p.bold(task.name)}  ${task.cron}  ${p.cyan(task.tz)}  ${p.dim(`catch-up ${task.catchUp}`)}  → ${task.jobs.join(', ')}`,
                ...task.next.map(
                  (occurrence, index) =>
                    `${label(index === 0 ? 'next' : '')}${occurrence.local} ${p.dim(`(${formatRelative(occurrence.at, now)})`)}`,
                ),
              ];
              if (task.state !== null) {
                lines.push(
                  `${label('settled through')}${
                    task.state.settledThrough === null
                      ? p.dim('nothing yet')
                      : `${formatInZone(task.state.settledThrough, task.tz)} ${p.dim(`(${formatRelative(task.state.settledThrough, now)})`)}`
                  }${task.state.paused ? `  ${p.yellow('paused')}` : ''}`,
                );
              }
              return lines.join('\n');
            })
            .join('\n\n'),
    );
  });
}
