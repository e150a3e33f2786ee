import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { checkConnectionString } from './connection-string.js';
import type { JobsDatabase } from './database-types.js';
import type { PostgresConnection } from './driver-options.js';
import { pgError } from './errors.js';

/** A Kysely instance over the caller's connection, where LISTEN connects, and what to release. */
export interface OpenedPostgres {
  readonly db: Kysely<JobsDatabase>;
  /** The pool itself, when there is one (named prepared statements run on it). */
  readonly pool: pg.Pool | undefined;
  /** Settings of the dedicated LISTEN client, or undefined when they cannot be known. */
  readonly listen: pg.ClientConfig | undefined;
  /** Ends what was opened here (a pool the driver made); leaves the caller's own pool or db alone. */
  readonly release: () => Promise<void>;
}

/** `application_name` of the driver's pooled sessions, so an operator can find them in pg_stat_activity. */
const POOL_APPLICATION_NAME = 'x-jobs';
/** How long opening a connection may take before it fails as unavailable. */
const CONNECT_TIMEOUT_MS = 10_000;
/** `application_name` of the LISTEN session. */
const LISTEN_APPLICATION_NAME = 'x-jobs-listen';

/** Opens (or adopts) the connection a Postgres driver or `migrate()` runs on. */
export function openPostgres(connection: PostgresConnection): OpenedPostgres {
  if (typeof connection !== 'object' || connection === null) {
    throw pgError('X_PG_OPTIONS_INVALID', 'Pass { connectionString }, { pool } or { db }.', {
      field: 'connection',
    });
  }
  if ('connectionString' in connection) {
    if (typeof connection.connectionString !== 'string' || connection.connectionString === '') {
      throw pgError('X_PG_OPTIONS_INVALID', 'connectionString: must be a non-empty string.', {
        field: 'connectionString',
      });
    }
    checkConnectionString(connection.connectionString);
    const pool = new pg.Pool({
      connectionString: connection.connectionString,
      max: connection.max ?? 10,
      application_name: POOL_APPLICATION_NAME,
      // A server that never answers fails the checkout (X_DRIVER_UNAVAILABLE), never hangs it.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle client whose server session died emits here; the pool drops it and opens a fresh
    // one on the next checkout. Without a listener the process would crash.
    pool.on('error', () => {});
    guardCheckedOutClients(pool);
    const db = new Kysely<JobsDatabase>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      pool,
      listen: { connectionString: connection.connectionString, application_name: LISTEN_APPLICATION_NAME },
      release: () => db.destroy(),
    };
  }
  if ('pool' in connection) {
    guardCheckedOutClients(connection.pool);
    const db = new Kysely<JobsDatabase>({ dialect: new PostgresDialect({ pool: connection.pool }) });
    return {
      db,
      pool: connection.pool,
      listen: { ...connection.pool.options, application_name: LISTEN_APPLICATION_NAME },
      release: async () => {},
    };
  }
  if ('db' in connection) {
    const listen = connection.listen;
    return {
      db: connection.db as Kysely<JobsDatabase>,
      pool: undefined,
      listen:
        listen === undefined
          ? undefined
          : typeof listen === 'string'
            ? { connectionString: listen, application_name: LISTEN_APPLICATION_NAME }
            : listen,
      release: async () => {},
    };
  }
  throw pgError('X_PG_OPTIONS_INVALID', 'Pass { connectionString }, { pool } or { db }.', {
    field: 'connection',
  });
}

/**
 * pg emits 'error' on a client whose session dies while it is checked out (pg_terminate_backend
 * between two statements, a restart), and pg-pool listens only while the client is idle: the
 * emit would crash the process. The failure already reaches the statement as a rejection and the
 * pool drops the dead client on release, so each new client gets a listener that swallows it.
 */
function guardCheckedOutClients(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
}
