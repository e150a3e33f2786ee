/**
 * Where the bench finds its services, and which database or Redis db index each system gets, so
 * no two systems share storage and a reset of one never touches another.
 */

/** The PostgreSQL server (its database part is replaced per system). */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The Redis server (its db index is chosen per system). */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One database per Postgres system. */
export const BENCH_DATABASES = {
  graphile: 'bench_graphile',
  graphile017: 'bench_graphile017',
  dbos: 'bench_dbos',
  pgboss: 'bench_pgboss',
  rawpg: 'bench_rawpg',
  x: 'bench_x',
} as const;

/** One Redis db index per Redis system (0 is left to everyone else). */
export const BENCH_REDIS_DBS = { bullmq: 1, rawRedis: 2, x: 3 } as const;

/** The connection string of one bench database on the configured server. */
export function databaseUrl(database: string): string {
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Plain ioredis connection options for one db index on the configured server. */
export function redisOptions(db: number): { host: string; port: number; db: number; password?: string } {
  const url = new URL(REDIS_URL);
  const options = { host: url.hostname, port: Number(url.port || 6379), db };
  return url.password ? { ...options, password: decodeURIComponent(url.password) } : options;
}

/** A Redis URL for one db index on the configured server. */
export function redisUrl(db: number): string {
  const url = new URL(REDIS_URL);
  url.pathname = `/${db}`;
  return url.toString();
}
