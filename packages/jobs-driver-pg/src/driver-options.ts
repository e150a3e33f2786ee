import type { QueueOptionsMap } from '@x/jobs-core/driver';
import type { Kysely } from 'kysely';
import type { ClientConfig, Pool } from 'pg';

/**
 * Where the driver's connections come from. With `connectionString` the driver owns its pool and
 * ends it on `close()`; a `pool` or `db` you pass stays yours.
 */
export type PostgresConnection =
  | {
      /** `postgres://user@host:5432/db`. */
      readonly connectionString: string;
      /** Pool size. (Default: 10) */
      readonly max?: number;
    }
  | {
      /** A pg Pool you own. The LISTEN session opens its own client with the pool's options. */
      readonly pool: Pool;
    }
  | {
      /** A Kysely instance on the Postgres dialect that you own. */
      // biome-ignore lint/suspicious/noExplicitAny: a Kysely instance typed with any app's tables
      readonly db: Kysely<any>;
      /**
       * Where the LISTEN session connects (a Kysely instance does not expose its connection
       * settings). Without it `wake` is absent and workers fall back to polling.
       */
      readonly listen?: string | ClientConfig;
    };

/** Settings shared by the Postgres and PGlite entries. */
export interface SqlJobDriverOptions {
  /** The schema holding every table; created by the first migration. (Default: 'x_jobs') */
  readonly schema?: string;
  /**
   * How long `done` rows (and their steps) are kept: the worker or scheduler that purges calls
   * `introspect.purge({ doneBefore: driver.now() - driver.doneRetentionMs })`. Dead rows are never
   * purged. (Default: 604_800_000, seven days)
   */
  readonly doneRetentionMs?: number;
  /**
   * What is kept of finished rows. `{ done: 0 }` keeps no `done` row: an ack deletes the row and
   * its run's steps in the statement that settles it (graphile-worker's behaviour; `get` of an
   * acked job then answers null), and nothing is left to purge. Dead and cancelled rows are kept
   * whatever this says. `{ done: ms }` is `doneRetentionMs`. Pass one of the two, not both.
   * (Default: `{ done: doneRetentionMs }`)
   */
  readonly retention?: { readonly done?: number };
  /**
   * Apply pending migrations (under the advisory lock) before the first statement. Turn it off
   * when a deploy step runs `migrate()` / `x-jobs migrate` and the app role may not run DDL.
   * (Default: true)
   */
  readonly migrate?: boolean;
  /**
   * Hold the LISTEN session that backs `driver.wake` (opened when the driver starts). Turn it off
   * in a process that only enqueues, to save the connection. (Default: true)
   */
  readonly wake?: boolean;
  /**
   * Per-queue settings: `{ imports: { fairness: 'tenant' } }` claims `imports` with
   * SQL_CLAIM_FAIR, sharing each claim fairly across tenants (see `QueueOptions` and the README,
   * Fair claiming). Give every process that claims the queue the same settings. Invalid settings
   * are `X_QUEUE_OPTIONS_INVALID`. (Default: none, every queue claimed with SQL_CLAIM)
   */
  readonly queues?: QueueOptionsMap;
}

/** Options of {@link postgresJobDriver}. */
export interface PostgresJobDriverOptions extends SqlJobDriverOptions {
  /**
   * Run the hot statements as named prepared statements on the pool (parsed and planned once per
   * connection). Turn it off behind a transaction-mode pooler (PgBouncer < 1.21) that cannot
   * keep them. Without a pool (`{ db }`) statements go through Kysely, unprepared. (Default: true)
   */
  readonly preparedStatements?: boolean;
}

/** Seven days in ms: the default `doneRetentionMs`. */
export const DEFAULT_DONE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
