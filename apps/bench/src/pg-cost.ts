import pg from 'pg';
import { sleep } from './clock.js';
import { DATABASE_URL, databaseUrl } from './endpoints.js';

/**
 * What the database did per job while one measurement ran, read from the server's own counters.
 * WAL is server-wide (`pg_current_wal_lsn`): run the bench on a server of its own (see README,
 * Per-job cost) or other work on the server counts too.
 */
export interface PgCost {
  /** WAL bytes per job (LSN difference; includes autovacuum of the system's tables meanwhile). */
  readonly walBytesPerJob: number;
  /** Committed transactions of the system's database per job (`pg_stat_database.xact_commit`). */
  readonly commitsPerJob: number;
  /** Heap tuples inserted, updated and deleted per job in the system's tables (`pg_stat_user_tables`). */
  readonly tuplesPerJob: number;
  /** Of those updates, the HOT ones (no index entry written) per job. */
  readonly hotUpdatesPerJob: number;
  /** Statements the clients ran per job (`pg_stat_statements`, top level); absent without it. */
  readonly statementsPerJob?: number;
}

interface Counters {
  readonly lsn: string;
  readonly commits: number;
  readonly tuples: number;
  readonly hot: number;
  readonly statements: number | null;
}

/**
 * Postgres counts a backend's transactions and tuples in its own memory and publishes them at
 * most every 10 s (PostgreSQL 15, `PGSTAT_MIN_INTERVAL`), or when it goes idle that long: a
 * reading waits this long after the measurement so every backend of it has published.
 */
const STATS_PUBLISH_MS = 11_000;

const COUNTERS = `select pg_current_wal_lsn()::text as lsn,
  (select xact_commit from pg_stat_database where datname = $1)::float8 as commits`;

const TABLES = `select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::float8 as tuples,
  coalesce(sum(n_tup_hot_upd), 0)::float8 as hot
from pg_stat_user_tables`;

/** Our own readings run on the admin connection and are left out of the statement count. */
const STATEMENTS = `select coalesce(sum(calls), 0)::float8 as calls from pg_stat_statements s
  join pg_database d on d.oid = s.dbid
  where d.datname = $1 and s.query not like '%pg_stat%' and s.query not like '%pg_current_wal_lsn%'`;

/**
 * Measures the per-job cost of one measurement on `database`: `start()` before it, `stop(jobs)`
 * after every connection of the system went idle. `stop` waits {@link STATS_PUBLISH_MS}.
 */
export async function measurePgCost(database: string): Promise<{ stop(jobs: number): Promise<PgCost> }> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  const tables = new pg.Client({ connectionString: databaseUrl(database) });
  await Promise.all([admin.connect(), tables.connect()]);
  let hasStatements = await admin
    .query('create extension if not exists pg_stat_statements')
    .then(() => admin.query('select 1 from pg_stat_statements limit 1'))
    .then(
      () => true,
      () => false,
    );
  const read = async (): Promise<Counters> => {
    await admin.query('select pg_stat_clear_snapshot()');
    await tables.query('select pg_stat_clear_snapshot()');
    const [server, own] = await Promise.all([
      admin.query<{ lsn: string; commits: number }>(COUNTERS, [database]),
      tables.query<{ tuples: number; hot: number }>(TABLES),
    ]);
    let statements: number | null = null;
    if (hasStatements) {
      statements = await admin.query<{ calls: number }>(STATEMENTS, [database]).then(
        (result) => result.rows[0]?.calls ?? 0,
        () => {
          hasStatements = false;
          return null;
        },
      );
    }
    const row = server.rows[0];
    const tuple = own.rows[0];
    return {
      lsn: row?.lsn ?? '0/0',
      commits: row?.commits ?? 0,
      tuples: tuple?.tuples ?? 0,
      hot: tuple?.hot ?? 0,
      statements,
    };
  };
  const before = await read();
  return {
    async stop(jobs) {
      try {
        await sleep(STATS_PUBLISH_MS);
        const after = await read();
        const wal = await admin.query<{ bytes: number }>('select pg_wal_lsn_diff($1, $2)::float8 as bytes', [
          after.lsn,
          before.lsn,
        ]);
        const statements =
          after.statements !== null && before.statements !== null
            ? { statementsPerJob: (after.statements - before.statements) / jobs }
            : {};
        return {
          walBytesPerJob: (wal.rows[0]?.bytes ?? 0) / jobs,
          commitsPerJob: (after.commits - before.commits) / jobs,
          tuplesPerJob: (after.tuples - before.tuples) / jobs,
          hotUpdatesPerJob: (after.hot - before.hot) / jobs,
          ...statements,
        };
      } finally {
        await Promise.all([admin.end(), tables.end()]);
      }
    },
  };
}
