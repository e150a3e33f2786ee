import type { BackfillRecord } from '@x/jobs-core/driver';
import { environmentAllows } from './backfill-environment.js';
import type { BackfillDeclaration } from './backfill-registry.js';

/** Where a declared backfill stands in one environment. */
export type BackfillState = 'pending' | 'failed' | 'running' | 'completed' | 'excluded';

/** The states `pending` lists: declared and not swept. */
export const UNSWEPT_STATES: readonly BackfillState[] = ['pending', 'failed'];

/** One declared backfill beside its newest ledger row. */
export interface BackfillStateRow {
  readonly name: string;
  readonly state: BackfillState;
  readonly checksum: string;
  /** The newest ledger row of this declaration (any scope), or null. */
  readonly latest: BackfillRecord | null;
  /** True when the newest completed row was swept by a definition with another checksum. */
  readonly checksumMoved: boolean;
}

/** What {@link pendingBackfills} answers. */
export interface PendingBackfills {
  readonly environment: string;
  readonly rows: readonly BackfillStateRow[];
  /** Names in a state that needs a sweep (`pending`, `failed`). */
  readonly pending: readonly string[];
  /** Ledger names no declaration owns (a removed or renamed sweep). */
  readonly orphaned: readonly string[];
}

/** True when the ledger row `run` belongs to `declaration` (`<name>`, or `<name>:<scope>` when scoped). */
export function ownsRun(declaration: BackfillDeclaration, run: BackfillRecord): boolean {
  return run.name === declaration.name || (declaration.scoped && run.name.startsWith(`${declaration.name}:`));
}

/**
 * The diff between what is declared and what the ledger holds: pure, so every surface (the CLI,
 * a deploy check) reports the same answer. The newest row decides `running` and `failed`;
 * otherwise any completed row is `completed`; no row at all is `pending`; an environment outside
 * `environments` is `excluded`.
 */
export function pendingBackfills(input: {
  readonly declarations: readonly BackfillDeclaration[];
  readonly runs: readonly BackfillRecord[];
  readonly environment: string;
}): PendingBackfills {
  const { declarations, runs, environment } = input;
  const rows = declarations.map((declaration): BackfillStateRow => {
    const own = runs.filter((run) => ownsRun(declaration, run)).sort((a, b) => b.startedAt - a.startedAt);
    const latest = own[0] ?? null;
    const completed = own.find((run) => run.status === 'completed');
    return {
      name: declaration.name,
      state: stateOf(declaration, environment, latest, completed !== undefined),
      checksum: declaration.checksum,
      latest,
      checksumMoved: completed !== undefined && completed.checksum !== declaration.checksum,
    };
  });
  const orphaned = [
    ...new Set(
      runs
        .filter((run) => !declarations.some((declaration) => ownsRun(declaration, run)))
        .map((run) => run.name),
    ),
  ];
  return {
    environment,
    rows,
    pending: rows.filter((row) => UNSWEPT_STATES.includes(row.state)).map((row) => row.name),
    orphaned,
  };
}

function stateOf(
  declaration: BackfillDeclaration,
  environment: string,
  latest: BackfillRecord | null,
  anyCompleted: boolean,
): BackfillState {
  if (!environmentAllows(declaration.environments, environment)) return 'excluded';
  if (latest?.status === 'running') return 'running';
  if (latest?.status === 'failed') return 'failed';
  return anyCompleted ? 'completed' : 'pending';
}
