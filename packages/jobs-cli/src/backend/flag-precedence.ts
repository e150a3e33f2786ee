import type { Command } from 'commander';

/** The backend flags that pick a backend, each with the environment variable that can set it. */
export const BACKEND_ENV = {
  driver: 'X_JOBS_DRIVER',
  databaseUrl: 'DATABASE_URL',
  redisUrl: 'REDIS_URL',
  dataDir: 'X_JOBS_DATA_DIR',
} as const;

/** A backend-picking flag. */
export type BackendPickFlag = keyof typeof BACKEND_ENV;

const FLAG_TEXT: Record<BackendPickFlag, string> = {
  driver: '--driver',
  databaseUrl: '--database-url',
  redisUrl: '--redis-url',
  dataDir: '--data-dir',
};

/** The backend each flag implies when it is the one that decides (`driver` names its own). */
const IMPLIES = { databaseUrl: 'pg', redisUrl: 'redis', dataDir: 'pglite' } as const;

/** What {@link pickKind} reads: the flag values, and which of them came from the environment. */
export interface PickInput {
  readonly driver?: string;
  readonly databaseUrl?: string;
  readonly redisUrl?: string;
  readonly dataDir?: string;
  /** The flags whose value came from their environment variable, not the command line. */
  readonly fromEnv?: readonly string[];
}

/**
 * The backend the flags pick, and the flag that decided it. An explicit flag always wins over the
 * environment: first `--driver`, `--database-url`, `--redis-url`, `--data-dir` as typed, then the
 * same four from `X_JOBS_DRIVER`, `DATABASE_URL`, `REDIS_URL`, `X_JOBS_DATA_DIR`; with none, PGlite.
 * So `--data-dir ./db` opens PGlite even with `DATABASE_URL` set in the environment.
 */
export function pickKind(flags: PickInput): { kind: string; by: BackendPickFlag | undefined } {
  const fromEnv = new Set(flags.fromEnv ?? []);
  for (const explicit of [true, false]) {
    for (const name of Object.keys(BACKEND_ENV) as BackendPickFlag[]) {
      const value = flags[name];
      if (value === undefined || fromEnv.has(name) === explicit) continue;
      return { kind: name === 'driver' ? value : IMPLIES[name], by: name };
    }
  }
  return { kind: 'pglite', by: undefined };
}

/** The backend flags of `command` whose value came from the environment (commander's value source). */
export function flagsFromEnv(command: Command): BackendPickFlag[] {
  return (Object.keys(BACKEND_ENV) as BackendPickFlag[]).filter(
    (name) => command.getOptionValueSource(name) === 'env',
  );
}

/**
 * The one stderr line `x-jobs` prints when a flag typed on the command line overrides a backend
 * variable set in the environment (the same setting, or one that would have picked another
 * backend); undefined when nothing was overridden. Never prints a value (a URL may hold a password).
 */
export function precedenceNote(
  flags: PickInput,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const fromEnv = new Set(flags.fromEnv ?? []);
  const { kind, by } = pickKind(flags);
  if (by === undefined || fromEnv.has(by)) return undefined;
  const overridden = (Object.keys(BACKEND_ENV) as BackendPickFlag[]).filter((name) => {
    const variable = BACKEND_ENV[name];
    if (env[variable] === undefined || env[variable] === '') return false;
    if (!fromEnv.has(name)) return flags[name] !== undefined; // typed too: the flag replaced it
    return name === 'driver' ? flags.driver !== kind : IMPLIES[name] !== kind; // ignored for another backend
  });
  if (overridden.length === 0) return undefined;
  const names = overridden.map((name) => BACKEND_ENV[name]).join(', ');
  return `x-jobs: ${FLAG_TEXT[by]} on the command line wins over ${names} set in the environment (using ${kind}).`;
}
