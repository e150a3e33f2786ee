import {
  type AnyJobHandle,
  checkReplay,
  type JobContext,
  type JobIntrospection,
  type JobRecord,
  type ReplayCheckResult,
} from '@x/jobs-core';
import type { Command } from 'commander';
import { loadAppModule } from '../app-module/load-app-module.js';
import type { BackendFlags } from '../backend/backend-choice.js';
import { requireIntrospection } from '../backend/require-introspection.js';
import type { CommandContext } from '../command-context.js';
import {
  addBackendOptions,
  addJsonOption,
  addModuleOption,
  type JsonFlag,
  type ModuleFlag,
} from '../command-options.js';
import { checkFailed, cliError } from '../errors.js';
import type { Palette } from '../output/colour.js';
import { examples, operate } from './operate.js';

/** The live states whose runs a deploy's new code will replay. */
const LIVE_RUN_STATES = ['suspended', 'delayed', 'running'] as const;

/** One checked run in the `--json` of `x-jobs check-replay`. */
export interface CheckedRun {
  readonly id: string;
  readonly name: string;
  readonly state: JobRecord['state'];
  /** `unknown-job` when the module registers no job of that name (the run could not replay at all). */
  readonly result: ReplayCheckResult | { readonly status: 'unknown-job' };
}

/** The `--json` shape of `x-jobs check-replay`. */
export interface CheckReplayJson {
  readonly checked: number;
  readonly diverging: number;
  readonly failed: number;
  /** Every run that would not replay cleanly (`diverges`, `failed`, `unknown-job`); with `--all`, every run. */
  readonly runs: readonly CheckedRun[];
}

interface CheckReplayFlags extends BackendFlags, JsonFlag, ModuleFlag {
  readonly all?: boolean;
  readonly timeout?: string;
}

/** Every live run of the given states, a page at a time. */
async function* liveRuns(introspect: JobIntrospection): AsyncGenerator<JobRecord> {
  for (const state of LIVE_RUN_STATES) {
    let cursor: string | null = null;
    do {
      const page = await introspect.list({ state, limit: 1000, ...(cursor === null ? {} : { cursor }) });
      yield* page.jobs;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
}

/** The module's check context: its `checkContext` export (a function answering the `ctx` services), else none. */
async function checkContextOf(namespace: Readonly<Record<string, unknown>>): Promise<JobContext> {
  const make = namespace.checkContext;
  if (make === undefined) return {};
  if (typeof make !== 'function') {
    throw cliError('X_CLI_MODULE_LOAD_FAILED', 'The module exports checkContext, but it is not a function.', {
      hint: 'export function checkContext() { return { mail: fakeMailer }; }',
    });
  }
  return ((await (make as () => unknown)()) ?? {}) as JobContext;
}

/** One line per run: its verdict, the run, and the point where it parts. */
function lineOf(run: CheckedRun, p: Palette): string {
  const head = `${p.bold(run.name)} ${p.dim(run.id)} (${run.state})`;
  const result = run.result;
  if (result.status === 'matches')
    return `${p.green('matches')}  ${head}: ${result.replayed} step(s) replayed`;
  if (result.status === 'unknown-job')
    return `${p.red('unknown')}  ${head}: the module registers no job of that name`;
  if (result.status === 'failed')
    return `${p.red('failed')}   ${head}: ${result.error.code} ${result.error.message}`;
  return `${p.red('diverges')} ${head} at step ${result.divergence.position}: ${result.divergence.reason}`;
}

function render(report: CheckReplayJson, p: Palette): string {
  const lines = report.runs.map((run) => lineOf(run, p));
  const summary =
    report.diverging + report.failed === 0
      ? p.green(`All ${report.checked} live run(s) replay on this code.`)
      : p.red(
          `${report.diverging} of ${report.checked} live run(s) would diverge, ${report.failed} could not be checked.`,
        );
  return [...lines, summary].join('\n');
}

/**
 * `x-jobs check-replay --module <file>`: replays the recorded step history of every live run
 * (suspended, delayed, running) against the module's current job code in replay-only mode
 * (core's `checkReplay`: recorded outputs from storage, no step body run, nothing written), and
 * reports each run whose code now asks for steps in another order, under other names or of another
 * kind, with the first point of divergence. Exit 1 (`X_CLI_CHECK_FAILED`) when any would diverge
 * or could not be checked. The module's `boot` is not run; its `checkContext` export, when present,
 * supplies `ctx`.
 */
export function registerCheckReplay(program: Command, context: CommandContext): void {
  const command = program
    .command('check-replay')
    .description(
      "replay every live run's recorded steps against the module's code; exit 1 if any would diverge",
    )
    .option('--all', 'list the runs that match as well')
    .option('--timeout <ms>', 'how long one run may take to replay (default: 10000)')
    .addHelpText(
      'after',
      examples(
        'x-jobs check-replay --module ./dist/jobs.js',
        'x-jobs check-replay --module ./dist/jobs.js --json',
      ),
    );
  addJsonOption(addBackendOptions(addModuleOption(command))).action(async (flags: CheckReplayFlags) => {
    const app = await loadAppModule(flags.module ?? '', context.io.cwd);
    const checkContext = await checkContextOf(app.namespace);
    const timeoutMs = flags.timeout === undefined ? undefined : Number(flags.timeout);
    await operate(context, flags, async (backend, printer) => {
      const introspect = requireIntrospection(backend.driver);
      const handles = new Map<string, AnyJobHandle>(
        app.registry.jobs().map((handle) => [handle.name, handle]),
      );
      const runs: CheckedRun[] = [];
      let checked = 0;
      for await (const row of liveRuns(introspect)) {
        checked += 1;
        const handle = handles.get(row.name);
        let result: CheckedRun['result'];
        if (handle === undefined) result = { status: 'unknown-job' };
        else {
          const detail = await introspect.get(row.id);
          if (detail === null) continue; // settled and removed meanwhile
          result = await checkReplay(handle, detail, {
            context: checkContext,
            ...(timeoutMs === undefined || !Number.isFinite(timeoutMs) ? {} : { timeoutMs }),
          });
        }
        if (flags.all === true || result.status !== 'matches') {
          runs.push({ id: row.id, name: row.name, state: row.state, result });
        }
      }
      const diverging = runs.filter((run) => run.result.status === 'diverges').length;
      const failed = runs.filter(
        (run) => run.result.status === 'failed' || run.result.status === 'unknown-job',
      ).length;
      const report: CheckReplayJson = { checked, diverging, failed, runs };
      printer.result(report, render);
      if (diverging + failed > 0) {
        throw checkFailed(`${diverging} live run(s) would diverge, ${failed} could not be checked.`);
      }
    });
  });
}
