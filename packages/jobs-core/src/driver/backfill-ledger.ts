import type { JsonValue } from '../values/json.js';

/** The status of one backfill pass. */
export type BackfillStatus = 'running' | 'completed' | 'failed';

/** One row of the backfill ledger: a pass of a named sweep. */
export interface BackfillRecord {
  readonly name: string;
  /** The run that performs this pass. One row per (name, runId). */
  readonly runId: string;
  /** A hash of the definition, to notice a sweep that changed. */
  readonly checksum: string;
  readonly status: BackfillStatus;
  readonly rowsProcessed: number;
  /** The keyset cursor after the last batch (a report, never a resume source). */
  readonly cursor: JsonValue;
  readonly startedAt: number;
  readonly completedAt: number | null;
}

/** Filter for {@link BackfillLedger.list}. */
export interface BackfillQuery {
  readonly name?: string;
  readonly status?: BackfillStatus;
  /** (Default: 100) */
  readonly limit?: number;
}

/** What has been swept: one row per pass, newest first. */
export interface BackfillLedger {
  /** Inserts or replaces the row keyed by (name, runId). */
  record(row: BackfillRecord): Promise<void>;
  get(name: string, runId: string): Promise<BackfillRecord | null>;
  /** Rows newest `startedAt` first. */
  list(query?: BackfillQuery): Promise<readonly BackfillRecord[]>;
}
