import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { flagsFromEnv, precedenceNote } from './backend/flag-precedence.js';
import type { CommandContext } from './command-context.js';
import { usageError } from './errors.js';

/** A command module: adds one subcommand to the program. */
export type RegisterCommand = (program: Command, context: CommandContext) => void;

/** The version in this package's package.json (read at run time so src and dist agree). */
function packageVersion(): string {
  const raw = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}

/**
 * Builds the `x-jobs` commander program with every command registered. Commander never exits
 * the process and never prints errors itself: a parse error is rethrown as `X_CLI_USAGE` with
 * the misused command's usage line, so `runCli` prints it in one format and exits 2.
 */
export function createProgram(context: CommandContext, commands: readonly RegisterCommand[]): Command {
  const { io } = context;
  const program = new Command('x-jobs')
    .description('Inspect and operate @x/jobs queues, run workers, and the zero-infrastructure dev loop.')
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => undefined,
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
    })
    .addHelpText(
      'after',
      `
Backend: --driver pg|pglite|redis|memory, or DATABASE_URL (pg) / REDIS_URL (redis); with neither,
PGlite in ./.x-jobs. Exit codes: 0 ok, 1 the operation failed, 2 bad usage.
Run 'x-jobs <command> --help' for a command's options and an example.`,
    );
  for (const register of commands) register(program, context);
  // An explicit flag wins over the environment (backend/flag-precedence.ts): tell the command which
  // backend flags came from the environment, and say so once when a typed flag overrides one.
  program.hook('preAction', (_program, action) => {
    if (!action.options.some((option) => option.attributeName() === 'databaseUrl')) return;
    const fromEnv = flagsFromEnv(action);
    action.setOptionValue('fromEnv', fromEnv);
    const note = precedenceNote({ ...action.opts(), fromEnv }, io.env);
    if (note !== undefined) io.stderr.write(`${note}\n`);
  });
  for (const command of [program, ...program.commands]) {
    command.exitOverride((error) => {
      throw translateCommanderError(error, command);
    });
  }
  return program;
}

/** Help and version "errors" are successful exits; everything else commander raises is bad usage. */
function translateCommanderError(error: CommanderError, command: Command): unknown {
  if (
    error.code === 'commander.helpDisplayed' ||
    error.code === 'commander.version' ||
    (error.code === 'commander.help' && error.exitCode === 0)
  ) {
    return error;
  }
  const path = command.parent === null ? 'x-jobs' : `x-jobs ${command.name()}`;
  const message = error.message.replace(/^error: /, '').replace(/\n/g, ' ');
  if (error.code === 'commander.help') {
    return usageError('No command given.', {
      usage: `${path} <command> [options]`,
      hint: "Run 'x-jobs --help' to list the commands.",
    });
  }
  return usageError(capitalise(message), {
    usage: `${path} ${command.usage()}`,
    hint: `Run '${path} --help' for the options and an example.`,
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** True when the thrown value is commander's "help or version was printed" signal. */
export function isHelpExit(error: unknown): boolean {
  return error instanceof CommanderError && error.exitCode === 0;
}
