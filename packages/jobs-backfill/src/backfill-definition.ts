import type { Duration, JobContext, JobRunContext, JobsLogger, JsonValue, RetryPolicy } from '@x/jobs-core';
import type { z } from 'zod';
import type { BackfillPage, BackfillPagesArgs } from './backfill-page.js';
import type { KeysetSource } from './keyset-source.js';
import type { PaceTimer } from './pace-timer.js';

/** What `handle` receives for one page. It gets no `step`: each page already is one. */
export interface BackfillHandleArgs<Row, Input> {
  readonly rows: readonly Row[];
  /** The step's signal: hand it to every call the body makes. */
  readonly signal: AbortSignal;
  readonly input: Input;
  /** The page's index: `batch:<index>` is its step. */
  readonly index: number;
  readonly ctx: JobRunContext;
}

/** What `count` receives: in a pass, the run's context; in a CLI dry run, the app's boot context. */
export interface BackfillCountArgs<Input> {
  readonly input: Input;
  readonly signal: AbortSignal;
  readonly ctx: JobContext;
}

/** The fields every backfill declares, whichever way it reads its rows. */
export interface BackfillDefinitionBase<Row, Schema extends z.ZodType> {
  /** The durable name: the job's name, the ledger's name and the live idempotency key. Required. */
  readonly name: string;
  /** Rows per page and per step: a positive integer. (Default: 1000) */
  readonly batch?: number;
  /** Batches per second, finite and positive (0.5 is one batch every two seconds). (Default: 5) */
  readonly rate?: number;
  /**
   * The org every page acts as, from the scope input, or `'none'` for a sweep across tenants.
   * Required, exactly as on `job()`.
   */
  readonly tenant: ((input: z.output<Schema>) => string) | 'none';
  /** Handles one page. Runs at least once per page: write idempotently (upserts, `update … where`). */
  readonly handle: (args: BackfillHandleArgs<Row, z.output<Schema>>) => unknown;
  /**
   * The same predicate the source selects on, counted: checked once after the last batch
   * (`X_BACKFILL_STALLED` when rows still match) and shown by the CLI's dry run.
   */
  readonly count?: (args: BackfillCountArgs<z.output<Schema>>) => number | Promise<number>;
  /** Migration ids this sweep needs applied; data, checked by `gateBackfill` (the CLI). (Default: none) */
  readonly requires?: string | readonly string[];
  /** The environments the pass may run in (`X_BACKFILL_ENVIRONMENT` elsewhere). (Default: every environment) */
  readonly environments?: readonly string[];
  /** A zod schema of the scope input (`enqueue({ input })`); requires `scope`. (Default: no input) */
  readonly input?: Schema;
  /** Names one pass per scope: the ledger row and the live key become `<name>:<scope>`. Requires `input`. */
  readonly scope?: (input: z.output<Schema>) => string;
  /** (Default: core's job default) */
  readonly retry?: RetryPolicy;
  /** (Default: 'default') */
  readonly queue?: string;
  /** (Default: 0) */
  readonly priority?: number;
  /** Ceiling of one attempt. (Default: none) */
  readonly timeout?: Duration;
  /** Ceiling of one page (a step). (Default: none) */
  readonly stepTimeout?: Duration;
  /** Where the pass reports a moved checksum and a skipped pass. (Default: JSON lines on stderr) */
  readonly logger?: JobsLogger;
  /** The throttle's clock and sleep. (Default: the wall clock and `setTimeout`) */
  readonly timer?: PaceTimer;
}

/** A backfill over any source: `pages` answers one page per cursor. */
export interface PagedBackfillDefinition<Row, Schema extends z.ZodType>
  extends BackfillDefinitionBase<Row, Schema> {
  /** Reads the page after `cursor` (keyset: never an offset). */
  readonly pages: (args: BackfillPagesArgs<z.output<Schema>>) => Promise<BackfillPage<Row>>;
  readonly source?: never;
}

/** A backfill over an SQL table through a Kysely select (see {@link KeysetSource}). */
export interface SourcedBackfillDefinition<Row, Schema extends z.ZodType>
  extends BackfillDefinitionBase<Row, Schema> {
  readonly source: KeysetSource<Row, z.output<Schema>>;
  readonly pages?: never;
}

/** A `backfill()` declaration: exactly one of `pages` and `source`. */
export type BackfillDefinition<Row, Schema extends z.ZodType> =
  | PagedBackfillDefinition<Row, Schema>
  | SourcedBackfillDefinition<Row, Schema>;

/** What a backfill's job is enqueued with: `force` sweeps a completed name again; `input` when scoped. */
export type BackfillJobInput<Input> = [Input] extends [undefined]
  ? { readonly force?: boolean }
  : { readonly force?: boolean; readonly input: Input };

/** What a pass answers (the job's result). */
export interface BackfillResult {
  /** The ledger name: `<name>` or `<name>:<scope>`. */
  readonly name: string;
  readonly batches: number;
  readonly rows: number;
  /** True when a completed ledger row made this pass a no-op. */
  readonly skipped: boolean;
  /** The run of the completed row that made it a no-op. */
  readonly previousRunId?: string;
  /** The last cursor handled, or null. */
  readonly cursor: JsonValue | null;
}
