import type { BackfillStatus } from '@x/jobs-core/driver';
import { type Command, InvalidArgumentError } from 'commander';
import type { Backend } from '../backend/backend.js';
import type { BackendFlags } from '../backend/backend-choice.js';
import type { CommandContext } from '../command-context.js';
import {
  addBackendOptions,
  addJsonOption,
  addModuleOption,
  type JsonFlag,
  type ModuleFlag,
} from '../command-options.js';
import { checkFailed, usageError } from '../errors.js';
import type { Printer } from '../output/printer.js';
import { parseLimit } from '../parse-limit.js';
import { renderLedger, renderPending, renderSweeps } from './backfill-render.js';
import { openBackfillApp } from './backfill-session.js';
import { sweepBackfill, sweepFailed } from './backfill-sweep.js';
import type { BackfillListJson, BackfillRunView, BackfillSweepJson } from './backfill-views.js';
import { examples, operate } from './operate.js';

export type { BackfillListJson, BackfillPendingJson, BackfillSweepJson } from './backfill-views.js';

interface BackfillFlags extends BackendFlags, JsonFlag, ModuleFlag {
  readonly list?: boolean;
  readonly pending?: boolean;
  readonly all?: boolean;
  readonly write?: boolean;
  readonly force?: boolean;
  readonly input?: unknown;
  readonly environment?: string;
  readonly name?: string;
  readonly status?: BackfillStatus;
  readonly limit?: number;
}

const STATUSES: readonly BackfillStatus[] = ['running', 'completed', 'failed'];

function parseInput(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('Expected JSON, e.g. --input \'{"orgId":"acme"}\'.');
  }
}

function parseStatus(value: string): BackfillStatus {
  if (!STATUSES.includes(value as BackfillStatus)) {
    throw new InvalidArgumentError(`Expected one of ${STATUSES.join(', ')}.`);
  }
  return value as BackfillStatus;
}

/**
 * `x-jobs backfill`: what is declared, what the ledger holds, and enqueueing passes. A name alone
 * is a dry run; `--write` gates and enqueues (the workers sweep); `--all` does every pending name,
 * each isolated, so one failure never stops the rest.
 */
export function registerBackfill(program: Command, context: CommandContext): void {
  const command = program
    .command('backfill [name]')
    .description('list, check and enqueue backfill passes: a name is a dry run, --write enqueues it')
    .option('--list', 'the ledger: every pass, newest first (--name, --status, --limit)')
    .option('--pending', 'declared but not swept here; exits 1 when anything is pending or failed')
    .option('--all', 'every pending backfill, one at a time, isolated per name')
    .option('--write', 'enqueue the pass (never implied: without it, a dry run)')
    .option('--force', 'with --write: sweep a completed name again, into a new ledger row')
    .option('--input <json>', 'the scope input of a scoped backfill', parseInput)
    .option(
      '--environment <name>',
      'the deploy to check against (default: X_JOBS_ENVIRONMENT, NODE_ENV, development)',
    )
    .option('--name <name>', 'with --list: only this ledger name')
    .option('--status <status>', `with --list: only ${STATUSES.join(', ')}`, parseStatus)
    .option('--limit <n>', 'with --list: rows, 1-1000 (default: 100)', parseLimit)
    .addHelpText(
      'after',
      examples(
        'x-jobs backfill --pending --module ./dist/jobs.js --json',
        'x-jobs backfill rewrite-slugs --module ./dist/jobs.js',
        'x-jobs backfill rewrite-slugs --module ./dist/jobs.js --write',
        'x-jobs backfill --all --write --module ./dist/jobs.js',
        'x-jobs backfill --list --status failed',
      ),
    );
  addJsonOption(addBackendOptions(addModuleOption(command, false))).action(
    async (name: string | undefined, flags: BackfillFlags) => {
      const mode = readMode(name, flags);
      await operate(context, flags, async (backend, printer) => {
        if (mode === 'list') return listLedger(backend, printer, flags);
        const app = await openBackfillApp(flags.module ?? '', context.io.cwd, backend);
        try {
          const environment = flags.environment ?? app.backfills.backfillEnvironment(context.io.env);
          const ledger = backend.driver.backfills;
          const declarations = app.backfills.registeredBackfills();
          if (mode === 'pending') {
            const runs = (await ledger?.list({ limit: 1000 })) ?? [];
            const report = app.backfills.pendingBackfills({ declarations, runs, environment });
            printer.result(report, renderPending);
            if (report.pending.length > 0) {
              throw checkFailed(
                `${report.pending.length} backfill(s) not swept: ${report.pending.join(', ')}.`,
              );
            }
            return;
          }
          if (name !== undefined && app.backfills.findBackfill(name) === undefined) {
            throw usageError(`No backfill named '${name}' in ${flags.module}.`, {
              hint: `Declared: ${declarations.map((row) => row.name).join(', ') || 'none'}.`,
            });
          }
          const names =
            name !== undefined
              ? [name]
              : app.backfills.pendingBackfills({
                  declarations,
                  runs: (await ledger?.list({ limit: 1000 })) ?? [],
                  environment,
                }).pending;
          const write = flags.write === true;
          const results: BackfillRunView[] = [];
          for (const each of names) {
            results.push(
              await sweepBackfill(app, {
                name: each,
                write,
                force: flags.force === true,
                input: flags.input,
                environment,
                ledger,
              }),
            );
          }
          const data: BackfillSweepJson = { environment, write, results };
          printer.result(data, renderSweeps);
          const failed = results.filter((view) => sweepFailed(view, write));
          if (failed.length > 0) {
            throw checkFailed(
              `${failed.length} backfill(s) failed: ${failed.map((view) => view.name).join(', ')}.`,
            );
          }
        } finally {
          await app.close();
        }
      });
    },
  );
}

type Mode = 'list' | 'pending' | 'sweep';

/** Exactly one of a name, `--list`, `--pending`, `--all`, with only the flags that mode reads. */
function readMode(name: string | undefined, flags: BackfillFlags): Mode {
  const usage = 'x-jobs backfill [name] [options]';
  const chosen = [name !== undefined, flags.list === true, flags.pending === true, flags.all === true];
  if (chosen.filter(Boolean).length !== 1) {
    throw usageError('Give exactly one of a backfill name, --list, --pending or --all.', {
      usage,
      hint: "Run 'x-jobs backfill --help' for the options and an example.",
    });
  }
  const listOnly = flags.name !== undefined || flags.status !== undefined || flags.limit !== undefined;
  if (listOnly && flags.list !== true)
    throw usageError('--name, --status and --limit go with --list.', { usage });
  if (flags.force === true && flags.write !== true) {
    throw usageError('--force goes with --write: a dry run never sweeps.', { usage });
  }
  if (flags.input !== undefined && name === undefined) {
    throw usageError('--input goes with a backfill name.', { usage });
  }
  if (flags.list === true || flags.pending === true) {
    if (flags.write === true) throw usageError('--write goes with a name or --all.', { usage });
  }
  if (flags.list !== true && flags.module === undefined) {
    throw usageError('--module is required: the declared backfills live in the app module.', { usage });
  }
  return flags.list === true ? 'list' : flags.pending === true ? 'pending' : 'sweep';
}

async function listLedger(backend: Backend, printer: Printer, flags: BackfillFlags): Promise<void> {
  const ledger = backend.driver.backfills;
  const runs =
    ledger === undefined
      ? []
      : await ledger.list({
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.status === undefined ? {} : { status: flags.status }),
          limit: flags.limit ?? 100,
        });
  const data: BackfillListJson = { runs };
  printer.result(data, (shown, palette) => renderLedger(shown.runs, palette, backend.driver.now()));
}
