import pg from 'pg';
import { databaseUrl } from './endpoints.js';

/** The dead tuples and size of a system's hot tables at one moment. */
export interface HotTableReading {
  /** Dead row versions in the hot tables' heaps (`pgstattuple`: exact, read now). */
  readonly deadTuples: number;
  /** Heap + indexes + TOAST of the hot tables, bytes. */
  readonly bytes: number;
}

/**
 * Reads the hot tables (`schema.table` names; a partitioned one counts its partitions) of one
 * database. Dead tuples come from `pgstattuple` (created on first use; it scans the tables, so
 * the count is exact at the moment of reading), else from `pg_stat_user_tables.n_dead_tup`, which
 * lags each backend's work by up to 10 s.
 */
export async function readHotTables(database: string, tables: readonly string[]): Promise<HotTableReading> {
  const client = new pg.Client({ connectionString: databaseUrl(database) });
  await client.connect();
  try {
    const exact = await client.query('create extension if not exists pgstattuple').then(
      () => true,
      () => false,
    );
    // pg_partition_tree answers nothing for a table outside a partition tree: it is its own leaf.
    const leaves = `select coalesce(t.relid, n.name::regclass) as relid from unnest($1::text[]) as n(name)
      left join lateral pg_partition_tree(n.name::regclass) t on true where t.relid is null or t.isleaf`;
    const dead = exact
      ? `select coalesce(sum((pgstattuple(relid)).dead_tuple_count), 0)::float8 as dead from (${leaves}) l`
      : `select coalesce(sum(s.n_dead_tup), 0)::float8 as dead from (${leaves}) l
          join pg_stat_user_tables s on s.relid = l.relid`;
    const [deadRow, sizeRow] = await Promise.all([
      client.query<{ dead: number }>(dead, [tables]),
      client.query<{ bytes: number }>(
        `select coalesce(sum(pg_total_relation_size(relid)), 0)::float8 as bytes from (${leaves}) l`,
        [tables],
      ),
    ]);
    return { deadTuples: deadRow.rows[0]?.dead ?? 0, bytes: sizeRow.rows[0]?.bytes ?? 0 };
  } finally {
    await client.end();
  }
}

/**
 * Opens a connection to `database` and leaves a transaction open on it, idle, holding its
 * snapshot and its transaction id: vacuum keeps every row version deleted after it began until
 * `release()`.
 */
export async function holdXmin(database: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl(database) });
  await client.connect();
  await client.query('begin isolation level repeatable read');
  await client.query('select txid_current()');
  return {
    async release() {
      await client.query('rollback').catch(() => {});
      await client.end();
    },
  };
}
