import type { BackfillRecord, EnqueueResult } from '@x/jobs-core/driver';

// The `--json` shapes of `x-jobs backfill`. The CLI's published types must compile without its
// optional peer `@x/jobs-backfill`, so these are spelled out here, not imported (the commands
// assign the package's values to them, so the compiler keeps the two in step).

/** A backfill's state (`BackfillState` of `@x/jobs-backfill`). */
export type BackfillStateName = 'pending' | 'failed' | 'running' | 'completed' | 'excluded';

/** A code and message, as `--json` prints a failure. */
export interface FailureView {
  readonly code: string;
  readonly message: string;
}

/** One name of `x-jobs backfill <name>` / `--all`, dry run or written. */
export interface BackfillRunView {
  readonly name: string;
  /** The ledger name the pass writes (`<name>` or `<name>:<scope>`); null when it could not be derived. */
  readonly ledgerName: string | null;
  readonly state: BackfillStateName | null;
  /** What the declared `count()` matches now, or null when it declares none. */
  readonly count: number | null;
  /** `requires` ids not checked (the module exports no `appliedMigrations`). */
  readonly unchecked: readonly string[];
  /** Why the gate would refuse (dry run) or refused (`--write`): the environment, a migration, a completed row. */
  readonly refusal: FailureView | null;
  /** The enqueue under `--write`, else null. */
  readonly enqueued: EnqueueResult | null;
  /** Anything else that failed for this name (a count that threw, an input the schema refused). */
  readonly error: FailureView | null;
}

/** The `--json` shape of `x-jobs backfill --list`: the ledger, newest first. */
export interface BackfillListJson {
  readonly runs: readonly BackfillRecord[];
}

/** One declared backfill beside its newest ledger row (`BackfillStateRow` of `@x/jobs-backfill`). */
export interface BackfillStateView {
  readonly name: string;
  readonly state: BackfillStateName;
  readonly checksum: string;
  /** The newest ledger row of this declaration (any scope), or null. */
  readonly latest: BackfillRecord | null;
  /** True when the newest completed row was swept by a definition with another checksum. */
  readonly checksumMoved: boolean;
}

/** The `--json` shape of `x-jobs backfill --pending`: `pendingBackfills()` as is. */
export interface BackfillPendingJson {
  readonly environment: string;
  readonly rows: readonly BackfillStateView[];
  /** Names in a state that needs a sweep (`pending`, `failed`). */
  readonly pending: readonly string[];
  /** Ledger names no declaration owns (a removed or renamed sweep). */
  readonly orphaned: readonly string[];
}

/** The `--json` shape of `x-jobs backfill <name>` and `--all`. */
export interface BackfillSweepJson {
  readonly environment: string;
  /** False for a dry run: nothing was enqueued. */
  readonly write: boolean;
  readonly results: readonly BackfillRunView[];
}
