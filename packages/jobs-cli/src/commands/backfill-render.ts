import type { BackfillState, PendingBackfills } from '@x/jobs-backfill';
import type { BackfillRecord } from '@x/jobs-core/driver';
import { formatWhen } from '@x/jobs-dashboard';
import type { Palette } from '../output/colour.js';
import { renderTable } from '../output/table.js';
import type { BackfillSweepJson } from './backfill-views.js';

function paintState(state: BackfillState | null, p: Palette): string {
  switch (state) {
    case 'pending':
      return p.yellow('pending');
    case 'failed':
      return p.red('failed');
    case 'completed':
      return p.green('completed');
    case 'running':
      return p.cyan('running');
    case 'excluded':
      return p.dim('excluded');
    default:
      return p.dim('—');
  }
}

/** `x-jobs backfill --list`: one line per pass. */
export function renderLedger(runs: readonly BackfillRecord[], p: Palette, now: number): string {
  if (runs.length === 0) return p.dim('The ledger holds no passes.');
  return renderTable(
    [
      { header: 'NAME' },
      { header: 'STATUS' },
      { header: 'ROWS', align: 'right' },
      { header: 'CURSOR' },
      { header: 'STARTED' },
      { header: 'COMPLETED' },
      { header: 'RUN' },
    ],
    runs.map((run) => [
      p.bold(run.name),
      paintState(run.status, p),
      String(run.rowsProcessed),
      JSON.stringify(run.cursor),
      formatWhen(run.startedAt, now),
      formatWhen(run.completedAt, now),
      p.dim(run.runId),
    ]),
    p.dim,
  );
}

/** `x-jobs backfill --pending`: every declaration with its state, then the verdict. */
export function renderPending(report: PendingBackfills, p: Palette): string {
  const table =
    report.rows.length === 0
      ? p.dim('The module declares no backfills.')
      : renderTable(
          [
            { header: 'BACKFILL' },
            { header: 'STATE' },
            { header: 'ROWS', align: 'right' },
            { header: 'NOTE' },
          ],
          report.rows.map((row) => [
            p.bold(row.name),
            paintState(row.state, p),
            row.latest === null ? p.dim('—') : String(row.latest.rowsProcessed),
            row.checksumMoved ? p.yellow('definition changed since it was swept') : '',
          ]),
          p.dim,
        );
  const verdict =
    report.pending.length === 0
      ? p.green(`Nothing unswept in ${report.environment}.`)
      : p.yellow(`${report.pending.length} unswept in ${report.environment}: ${report.pending.join(', ')}`);
  const orphans =
    report.orphaned.length === 0
      ? []
      : [p.dim(`In the ledger but not declared: ${report.orphaned.join(', ')}`)];
  return [table, '', verdict, ...orphans].join('\n');
}

/** `x-jobs backfill <name>` / `--all`: what each name would do, or did. */
export function renderSweeps(data: BackfillSweepJson, p: Palette): string {
  if (data.results.length === 0) return p.dim(`Nothing pending in ${data.environment}.`);
  const lines = data.results.map((view) => {
    const head = `${p.bold(view.ledgerName ?? view.name)}  ${paintState(view.state, p)}`;
    const count = view.count === null ? '' : `  ${view.count} row(s) match now`;
    let outcome: string;
    if (view.error !== null) outcome = p.red(`failed ${view.error.code}: ${view.error.message}`);
    else if (view.refusal !== null) {
      outcome = `${data.write ? p.red('refused') : p.yellow('would refuse')} ${view.refusal.code}: ${view.refusal.message}`;
    } else if (view.enqueued !== null) {
      outcome = view.enqueued.deduped
        ? `already queued as ${view.enqueued.id} (the live pass)`
        : p.green(`enqueued ${view.enqueued.id}: the workers sweep it`);
    } else outcome = p.dim('dry run: would enqueue (add --write)');
    const unchecked =
      view.unchecked.length === 0
        ? []
        : [p.dim(`  requires ${view.unchecked.join(', ')}: not checked (export appliedMigrations)`)];
    return [`${head}${count}`, `  ${outcome}`, ...unchecked].join('\n');
  });
  return lines.join('\n');
}
