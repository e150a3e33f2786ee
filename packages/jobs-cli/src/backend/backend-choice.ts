import path from 'node:path';
import { usageError } from '../errors.js';
import { pickKind } from './flag-precedence.js';

/** The backends `--driver` names. */
export const DRIVER_KINDS = ['pg', 'pglite', 'redis', 'memory'] as const;

/** A backend `--driver` names. */
export type DriverKind = (typeof DRIVER_KINDS)[number];

/** The data directory PGlite uses when none is given (relative to the working directory). */
export const DEFAULT_DATA_DIR = '.x-jobs';

/** The backend flags as parsed (each may also come from its env var). */
export interface BackendFlags {
  readonly driver?: DriverKind;
  readonly databaseUrl?: string;
  readonly redisUrl?: string;
  readonly schema?: string;
  readonly prefix?: string;
  readonly dataDir?: string;
  /** The backend flags whose value came from their environment variable (set by the program). */
  readonly fromEnv?: readonly string[];
}

/** A resolved backend: which driver, and where. */
export type BackendChoice =
  | { readonly kind: 'pg'; readonly url: string; readonly schema?: string }
  | { readonly kind: 'pglite'; readonly dataDir: string; readonly schema?: string }
  | { readonly kind: 'redis'; readonly url: string; readonly prefix?: string }
  | { readonly kind: 'memory' };

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Picks the backend ({@link pickKind}): a flag typed on the command line wins over the environment
 * — `--driver`, else `pg` for `--database-url`, `redis` for `--redis-url`, `pglite` for
 * `--data-dir` — and only then do `X_JOBS_DRIVER`, `DATABASE_URL`, `REDIS_URL`, `X_JOBS_DATA_DIR`
 * decide, in that order; with none, `pglite` in `./.x-jobs`. A driver without the URL it needs, a
 * malformed URL or schema is `X_CLI_USAGE`.
 */
export function chooseBackend(flags: BackendFlags, cwd: string): BackendChoice {
  const kind = pickKind(flags).kind as DriverKind;
  if (flags.schema !== undefined && !SCHEMA_NAME.test(flags.schema)) {
    throw usageError(`--schema '${flags.schema}' is not a plain SQL identifier.`, {
      hint: 'Use letters, digits and underscores, starting with a letter: --schema x_jobs',
    });
  }
  switch (kind) {
    case 'pg': {
      const url = flags.databaseUrl;
      if (url === undefined) {
        throw usageError('--driver pg needs a PostgreSQL connection string.', {
          hint: 'Set DATABASE_URL=postgres://user@host:5432/db or pass --database-url <url>.',
        });
      }
      if (!/^postgres(ql)?:\/\//.test(url)) {
        throw usageError('The database URL must start with postgres:// or postgresql://.', {
          hint: 'Example: --database-url postgres://postgres@127.0.0.1:5432/postgres',
        });
      }
      return { kind, url, ...(flags.schema === undefined ? {} : { schema: flags.schema }) };
    }
    case 'redis': {
      const url = flags.redisUrl;
      if (url === undefined) {
        throw usageError('--driver redis needs a Redis connection string.', {
          hint: 'Set REDIS_URL=redis://127.0.0.1:6379 or pass --redis-url <url>.',
        });
      }
      if (!/^rediss?:\/\//.test(url)) {
        throw usageError('The Redis URL must start with redis:// or rediss://.', {
          hint: 'Example: --redis-url redis://127.0.0.1:6379',
        });
      }
      return { kind, url, ...(flags.prefix === undefined ? {} : { prefix: flags.prefix }) };
    }
    case 'pglite':
      return {
        kind,
        dataDir: path.resolve(cwd, flags.dataDir ?? DEFAULT_DATA_DIR),
        ...(flags.schema === undefined ? {} : { schema: flags.schema }),
      };
    case 'memory':
      return { kind };
  }
}

/** A one-line description of a backend for notes: `postgres (schema x_jobs)`, `pglite at ./.x-jobs`. */
export function describeBackend(choice: BackendChoice, cwd: string): string {
  switch (choice.kind) {
    case 'pg':
      return `postgres ${redactUrl(choice.url)}${choice.schema === undefined ? '' : ` (schema ${choice.schema})`}`;
    case 'pglite':
      return `pglite at ${path.relative(cwd, choice.dataDir) || '.'}`;
    case 'redis':
      return `redis ${redactUrl(choice.url)}${choice.prefix === undefined ? '' : ` (prefix ${choice.prefix})`}`;
    case 'memory':
      return 'memory (in this process only)';
  }
}

/** A connection URL with its password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable url)';
  }
}
