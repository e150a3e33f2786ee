import type { BackfillRecord } from '@x/jobs-core/driver';
import { environmentAllows } from './backfill-environment.js';
import type { BackfillDeclaration } from './backfill-registry.js';
import { backfillError } from './errors.js';

/** What {@link gateBackfill} checks a pass against. */
export interface BackfillGateInput {
  readonly declaration: BackfillDeclaration;
  /** The ledger name the pass would write (`<name>` or `<name>:<scope>`). */
  readonly ledgerName: string;
  readonly environment: string;
  /** The ledger rows under `ledgerName` (empty without a ledger). */
  readonly runs: readonly BackfillRecord[];
  /** Applied migration ids, or undefined when the app gave no way to read them. */
  readonly appliedMigrations: readonly string[] | undefined;
  readonly force: boolean;
}

/** What passed the gate, with what it could not check. */
export interface BackfillGate {
  /** `requires` ids that were not checked because no applied-migration list was given. */
  readonly unchecked: readonly string[];
}

/**
 * The pre-check before enqueueing a pass (the CLI's `--write`), so work that would only
 * dead-letter is never queued: the environment (`X_BACKFILL_ENVIRONMENT`), every `requires`
 * migration applied (`X_BACKFILL_MIGRATION_PENDING`), and no completed row unless `force`
 * (`X_BACKFILL_COMPLETED`). The pass itself enforces the environment again.
 */
export function gateBackfill(input: BackfillGateInput): BackfillGate {
  const { declaration, ledgerName, environment } = input;
  if (!environmentAllows(declaration.environments, environment)) {
    throw backfillError(
      'X_BACKFILL_ENVIRONMENT',
      `Backfill '${ledgerName}' runs in ${(declaration.environments ?? []).join(', ')}, not in '${environment}'.`,
      { name: ledgerName, environment, environments: declaration.environments },
    );
  }
  const applied = input.appliedMigrations;
  if (applied !== undefined) {
    const missing = declaration.requires.filter((id) => !applied.includes(id));
    if (missing.length > 0) {
      throw backfillError(
        'X_BACKFILL_MIGRATION_PENDING',
        `Backfill '${ledgerName}' requires migration(s) not applied: ${missing.join(', ')}.`,
        { name: ledgerName, missing },
      );
    }
  }
  const completed = input.runs.find((run) => run.name === ledgerName && run.status === 'completed');
  if (completed !== undefined && !input.force) {
    throw backfillError(
      'X_BACKFILL_COMPLETED',
      `Backfill '${ledgerName}' completed in run ${completed.runId}; pass --force to sweep again into a new row.`,
      { name: ledgerName, previousRunId: completed.runId },
    );
  }
  return { unchecked: applied === undefined ? declaration.requires : [] };
}
