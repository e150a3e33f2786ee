import { type Command, Option } from 'commander';
import { DEFAULT_DATA_DIR, DRIVER_KINDS } from './backend/backend-choice.js';

/** `--json` as parsed. */
export interface JsonFlag {
  readonly json?: boolean;
}

/** Adds `--json` (every command has it). */
export function addJsonOption(command: Command): Command {
  return command.option('--json', 'print one JSON document on stdout (shapes in the README)');
}

/**
 * Adds the backend options: `--driver`, `--database-url`, `--redis-url`, `--schema`, `--prefix`,
 * `--data-dir`, each also read from its environment variable.
 */
export function addBackendOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--driver <name>',
        'backend (default: pg with a database URL, redis with a Redis URL, else pglite)',
      )
        .choices(DRIVER_KINDS)
        .env('X_JOBS_DRIVER'),
    )
    .addOption(new Option('--database-url <url>', 'PostgreSQL connection string').env('DATABASE_URL'))
    .addOption(new Option('--redis-url <url>', 'Redis connection string').env('REDIS_URL'))
    .addOption(
      new Option('--schema <name>', 'PostgreSQL/PGlite schema of the job tables').env('X_JOBS_SCHEMA'),
    )
    .addOption(new Option('--prefix <prefix>', 'Redis key prefix').env('X_JOBS_REDIS_PREFIX'))
    .addOption(
      new Option('--data-dir <dir>', `PGlite data directory (default: ./${DEFAULT_DATA_DIR})`).env(
        'X_JOBS_DATA_DIR',
      ),
    );
}

/** `--module` as parsed. */
export interface ModuleFlag {
  readonly module?: string;
}

/** Adds `--module <file>` (required unless `optional`). */
export function addModuleOption(command: Command, required = true): Command {
  const option = new Option(
    '--module <file>',
    'ESM file whose job() and task() exports are registered (.ts needs tsx)',
  ).env('X_JOBS_MODULE');
  if (required) option.makeOptionMandatory();
  return command.addOption(option);
}
