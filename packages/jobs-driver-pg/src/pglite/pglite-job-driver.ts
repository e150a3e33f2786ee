import { PGlite } from '@electric-sql/pglite';
import { parseQueueOptions } from '@x/jobs-core/driver';
import { Kysely } from 'kysely';
import type { JobsDatabase } from '../database-types.js';
import type { SqlJobDriverOptions } from '../driver-options.js';
import { pgError } from '../errors.js';
import { resolveRetention } from '../postgres-job-driver.js';
import { DEFAULT_SCHEMA, settledChannel, validateSchemaName } from '../schema-name.js';
import { createSqlJobDriver, type PostgresJobDriver } from '../sql-job-driver.js';
import { type DataDirLock, lockDataDir } from './data-dir-lock.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PgliteListen } from './pglite-listen.js';

/** Options of {@link pgliteJobDriver}. */
export interface PgliteJobDriverOptions extends SqlJobDriverOptions {
  /**
   * The database's directory on disk: created when missing, held with an exclusive lock file
   * (`<dataDir>/.x-jobs.lock`) until `close()`. Absent: an in-memory database, gone on close.
   */
  readonly dataDir?: string;
  /**
   * A PGlite instance you own, instead of `dataDir`: the driver neither locks nor closes it, so
   * several drivers (schemas) and your own tables may share one instance. Opened on a directory,
   * hold that directory with {@link lockDataDir} for as long as the instance is open (the driver
   * cannot tell which directory an instance uses).
   */
  readonly pglite?: PGlite;
  /**
   * The Kysely instance your own code uses over that same `pglite` (with this entry's {@link PGliteDialect}).
   * Pass it whenever your code opens transactions on the instance: PGlite has one session, and a
   * Kysely instance serializes only its own transactions, so a second Kysely (the driver's own)
   * would run its statements inside your open transaction — and a rollback of yours would take an
   * enqueue the driver had already answered with it. Given `db`, the driver's statements wait for
   * your transactions. Not closed by the driver. Needs `pglite`.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a Kysely instance typed with any app's tables
  readonly db?: Kysely<any>;
}

/**
 * The same driver over embedded PGlite (PostgreSQL in WASM): the zero-infrastructure default for
 * the demo, `x-jobs dev` and tests. Resolves once the instance is open and migrated. One process
 * per `dataDir`: a second opener is refused with `X_PGLITE_LOCKED` while the owner lives.
 *
 * ```ts
 * const driver = await pgliteJobDriver({ dataDir: '.x-jobs/db' });
 * ```
 */
export async function pgliteJobDriver(options: PgliteJobDriverOptions = {}): Promise<PostgresJobDriver> {
  const schema = validateSchemaName(options.schema ?? DEFAULT_SCHEMA);
  const queues = parseQueueOptions(options.queues, 'pgliteJobDriver');
  const retention = resolveRetention(options);
  if (options.dataDir !== undefined && options.pglite !== undefined) {
    throw pgError('X_PG_OPTIONS_INVALID', 'Pass dataDir or pglite, not both.', { field: 'pglite' });
  }
  if (options.db !== undefined && options.pglite === undefined) {
    throw pgError('X_PG_OPTIONS_INVALID', 'db needs pglite: pass the PGlite instance that Kysely runs on.', {
      field: 'db',
    });
  }
  if (options.dataDir !== undefined && (typeof options.dataDir !== 'string' || options.dataDir === '')) {
    throw pgError('X_PG_OPTIONS_INVALID', 'dataDir: must be a non-empty path.', { field: 'dataDir' });
  }
  // A filesystem path is locked; PGlite's own schemes (`memory://`) hold nothing to share.
  const onDisk = options.dataDir !== undefined && !/^[a-z]+:\/\//i.test(options.dataDir);
  const lock: DataDirLock | undefined = onDisk ? await lockDataDir(options.dataDir as string) : undefined;
  let owned: PGlite | undefined;
  try {
    owned = options.pglite === undefined ? await PGlite.create(options.dataDir) : undefined;
    const pglite = options.pglite ?? (owned as PGlite);
    const driver = createSqlJobDriver({
      name: 'pglite',
      db:
        (options.db as Kysely<JobsDatabase> | undefined) ??
        new Kysely<JobsDatabase>({ dialect: new PGliteDialect(pglite) }),
      schema,
      migrate: options.migrate ?? true,
      ...retention,
      queues,
      wake: options.wake === false ? undefined : new PgliteListen(pglite, schema, settledChannel(schema)),
      release: async () => {
        await owned?.close();
        await lock?.release();
      },
    });
    try {
      await driver.ready();
    } catch (error) {
      await driver.close();
      throw error;
    }
    return driver;
  } catch (error) {
    await owned?.close().catch(() => {});
    await lock?.release();
    throw error;
  }
}
