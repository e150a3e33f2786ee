/**
 * Where the bench finds its services, and which database or Redis db index each system gets, so
 * no two systems share storage and a reset of one never touches another.
 */

/** The PostgreSQL server (its database part is replaced per system). */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The Redis server (its db index is chosen per system). */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * `BENCH_STORAGE_TAG` (letters, digits, `_`) gives a second bench on the same servers storage of
 * its own: every database name gets `_<tag>`, and the Redis systems move to db 11–13 (from 1–3).
 */
const TAG = process.env.BENCH_STORAGE_TAG ?? '';
if (!/^[a-z0-9_]*$/i.test(TAG)) throw new Error(`BENCH_STORAGE_TAG must be letters, digits or _: ${TAG}`);
const dbName = (name: string): string => (TAG === '' ? name : `${name}_${TAG.toLowerCase()}`);
const redisDb = (db: number): number => (TAG === '' ? db : db + 10);

/** One database per Postgres system. */
export const BENCH_DATABASES = {
  graphile: dbName('bench_graphile'),
  graphile017: dbName('bench_graphile017'),
  dbos: dbName('bench_dbos'),
  pgboss: dbName('bench_pgboss'),
  rawpg: dbName('bench_rawpg'),
  x: dbName('bench_x'),
} as const;

/** One Redis db index per Redis system (0 is left to everyone else). */
export const BENCH_REDIS_DBS = { bullmq: redisDb(1), rawRedis: redisDb(2), x: redisDb(3) } as const;

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
