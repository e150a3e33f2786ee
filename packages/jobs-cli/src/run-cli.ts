import type { CliIo } from './cli-io.js';
import { COMMANDS } from './commands/index.js';
import { isReported } from './errors.js';
import { EXIT_CODES, type ExitCode, exitCodeFor } from './exit-code.js';
import { Printer } from './output/printer.js';
import { createProgram, isHelpExit } from './program.js';

/**
 * Runs `x-jobs` with the given arguments and streams and answers the exit code (0 ok, 1 the
 * operation failed, 2 bad usage). It never calls `process.exit`; `cli.ts` does, after stdout
 * has flushed.
 */
export async function runCli(io: CliIo): Promise<ExitCode> {
  const program = createProgram({ io }, COMMANDS);
  try {
    await program.parseAsync([...io.argv], { from: 'user' });
    return EXIT_CODES.ok;
  } catch (error) {
    if (isHelpExit(error)) return EXIT_CODES.ok;
    if (!isReported(error)) new Printer(io, { json: io.argv.includes('--json') }).error(error);
    return exitCodeFor(error);
  }
}
