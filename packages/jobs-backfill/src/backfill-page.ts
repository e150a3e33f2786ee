import type { JobRunContext, JsonValue } from '@x/jobs-core';

/** One page a source answers: the rows to handle and the cursor of the next page (`null` ends the pass). */
export interface BackfillPage<Row> {
  readonly rows: readonly Row[];
  /** The keyset cursor after the last row, stored as the batch's checkpoint. JSON only. */
  readonly next: JsonValue | null;
}

/** What `pages` receives for one page. */
export interface BackfillPagesArgs<Input> {
  /** The previous page's `next`; `null` for the first page. */
  readonly cursor: JsonValue | null;
  /** The step's signal: aborts on timeout, cancel, drain or a lost lease. */
  readonly signal: AbortSignal;
  /** The scope input (`undefined` when the backfill declares no `input`). */
  readonly input: Input;
  /** Rows per page: the declared `batch`. */
  readonly batch: number;
  readonly ctx: JobRunContext;
}
